:- module(azul,
          [ new_game/6,            % +Id, +Players, +Variant, +Starter, +Randoms, -Used
            legal_moves/2,         % +Id, -Moves
            turn/2,                % +Id, -Seat
            play_move/4,           % +Id, +Move, +Randoms, -Used
            run_random_game/4,     % +Id, +Randoms, -Used, -Status
            random_game/7,         % +Id, +Players, +Variant, +Starter, +Randoms, -Used, -Status
            random_games/4,        % +Players, +Variant, +Games, -Results
            game_result/4,         % +Id, +Status, -Text, -Seats
            export_state/2,        % +Id, -State
            state_text/2,          % +Id, -Text
            import_state/2,        % +Id, +State
            winners/2,             % +Id, -Seats
            drop_game/1,           % +Id
            tile_score/4,          % +Wall, +Row, +Column, -Points
            end_bonus/2,           % +Wall, -Points
            end_bonus/3,           % +Wall, +Colours, -Points
            grey_columns/5,        % +Wall, +Colours, +Row, +Colour, -Columns
            row_completable/3,     % +Wall, +Colours, +Row
            floor_points/2,        % +Items, -Points
            winners_of/3           % +Scores, +Rows, -Seats
          ]).

/** <module> Azul: the rules, over the game state kept as a dynamic fact

The rules are relations between game states, terms

  azul(Players, Round, Moves, Turn, Starter, Phase, Marker, Factories,
       Centre, Bag, Lid, Boards)

with Phase `offer`, `tiling` or `over`; Turn the seat to move (-1 once
over; in the tiling phase the seat choosing a column);
Marker `centre` or the seat that took it this round; Factories one list
of 5 colour counts per factory; Centre, Bag and Lid colour counts; Boards
one board(Score, Wall, Colours, Lines, Floor) per seat: Wall 5 rows of 5
cells 0/1; Colours `none` on the coloured wall (its pattern says which
colour a cell takes), else, on the grey wall of the variant, 5 rows of 5
cells holding the colour placed there (-1 for none); Lines 5 terms
line(Colour, Count) (Colour -1 when empty); Floor a list of colours (5 is
the marker).

Each game lives in one dynamic fact game_state(Id, State) keyed by a game
id, so several games are alive at once; a query reads it, applies the
rules and stores the result. A whole random game (run_random_game/4)
threads the state through its turns and stores it once.

The variant (grey side of the board): a full pattern line's tile may go
on any free cell of its row whose column holds no tile of that colour
(grey_columns/5), and its owner chooses which: when the factory offer
ends the walls are tiled seat by seat, top line first, and at each full
line with such a cell the game waits in the phase `tiling`, that seat to
move; when there is none, the line's tiles fall to the floor.

A move is [Source, Colour, Destination]: Source -1 is the centre, 0.. a
factory; Destination 0 the floor, 1..5 a pattern line. In the tiling
phase a move is [-2, Row, Column]: the tile of the line of Row (0-based)
to that wall column. Randomness comes in as data: a list of integers, one
read per tile drawn (index into the bag modulo its size) and one per move
the random strategy chooses.
*/

:- set_prolog_flag(optimise, true).   % compile the rules' arithmetic inline
:- use_module(azul_facts).
:- use_module(library(lists), [nth0/3, append/3, member/2, memberchk/2, max_list/2, sum_list/2, permutation/2,
                                select/3]).
:- use_module(library(apply), [maplist/2, maplist/3, maplist/4, foldl/4, foldl/6]).
:- use_module(library(aggregate), [aggregate_all/3]).
:- use_module(library(pairs), [pairs_values/2]).
:- use_module(library(error), [must_be/2]).

:- dynamic game_state/2.     % Id, State

%!  new_game(+Id, +Players, +Variant, +Starter, +Randoms, -Used) is semidet.
%
%   Start game Id of Variant (`standard` or `grey`) for Players with seat
%   Starter to open, and deal round 1 with the first Used numbers of
%   Randoms. Replaces any game Id.
%
%   ```
%   ?- numlist(1, 100, _Randoms), new_game(doc, 2, standard, 0, _Randoms, Used), turn(doc, Seat).
%   Used = 20,
%   Seat = 0.
%   ```
%
%   @error type_error(oneof([standard, grey]), Variant) for another variant; type_error(between(2,
%       4), Players) for another count of players.
%   @error type_error(nonneg, Starter), type_error(list(integer), Randoms) for arguments of another type.

new_game(Id, Players, Variant, Starter, Randoms, Used) :-
    must_be(oneof([standard, grey]), Variant),
    must_be(between(2, 4), Players),
    must_be(nonneg, Starter),
    must_be(list(integer), Randoms),
    factories_for(Players, Count),
    full_bag(Bag),
    empty_counts(Empty),
    length(Factories, Count),
    maplist(=(Empty), Factories),
    empty_board(Variant, Board),
    length(Boards, Players),
    maplist(=(Board), Boards),
    start_round(azul(Players, 0, 0, Starter, Starter, offer, centre, Factories, Empty, Bag, Empty, Boards),
                Randoms, Rest, State),
    store(Id, State),
    used(Randoms, Rest, Used).

empty_counts([0, 0, 0, 0, 0]).

%   empty_board(+Variant, -Board): a board at the start.
empty_board(Variant, board(0, Wall, Colours, Lines, [])) :-
    length(Wall, 5),
    maplist(filled_row(0), Wall),
    length(Lines, 5),
    maplist(=(line(-1, 0)), Lines),
    (   Variant == grey
    ->  length(Colours, 5),
        maplist(filled_row(-1), Colours)
    ;   Colours = none
    ).

filled_row(Value, Row) :-
    length(Row, 5),
    maplist(=(Value), Row).

used(Randoms, Rest, Used) :-
    length(Randoms, Before),
    length(Rest, After),
    Used is Before - After.

%   store(+Id, +State): State is now game Id.
store(Id, State) :-
    retractall(game_state(Id, _)),
    assertz(game_state(Id, State)).

%!  drop_game(+Id) is det.
%
%   Forget game Id.
%
%   ```
%   ?- drop_game(doc), ( turn(doc, _) -> Kept = true ; Kept = false ).
%   Kept = false.
%   ```
%
%   @error none.

drop_game(Id) :-
    retractall(game_state(Id, _)).

%!  turn(+Id, -Seat) is semidet.
%
%   Seat is the seat to move in game Id (-1 once the game is over).
%
%   ```
%   ?- numlist(1, 100, _Randoms), new_game(doc, 3, standard, 1, _Randoms, _), turn(doc, Seat).
%   Seat = 1.
%   ```
%
%   @error none: an unknown game fails.

turn(Id, Seat) :-
    game_state(Id, State),
    arg(4, State, Seat).

%!  legal_moves(+Id, -Moves) is det.
%
%   Moves are the legal moves [Source, Colour, Destination] of the player
%   to move, centre first, then factories; colours and destinations
%   ascending. A full line is never a destination; the floor always is.
%   Empty once the game is over.
%
%   ```
%   ?- numlist(1, 100, _Randoms), new_game(doc, 2, standard, 0, _Randoms, _), legal_moves(doc, _Moves),
%              length(_Moves, Count), _Moves = [First|_].
%   Count = 36,
%   First = [0, 0, 0].
%   ```
%
%   @error none: an unknown game fails.

legal_moves(Id, Moves) :-
    game_state(Id, State),
    state_moves(State, Moves).

%   state_moves(+State, -Moves): the legal moves in State (legal_moves/2);
%   in the tiling phase, the columns of the chooser's top full line.
state_moves(azul(_, _, _, Seat, _, Phase, _, Factories, Centre, _, _, Boards), Moves) :-
    (   Phase == offer
    ->  item(Seat, Boards, board(_, Wall, Colours, Lines, _)),
        maplist(destinations(Wall, Colours, Lines), [0, 1, 2, 3, 4], Allowed),
        source_moves(Centre, -1, Allowed, Moves, Moves1),
        factory_moves(Factories, 0, Allowed, Moves1, [])
    ;   Phase == tiling
    ->  item(Seat, Boards, board(_, Wall, Colours, Lines, _)),
        pending_line(Lines, 0, Row, Colour),
        grey_columns(Wall, Colours, Row, Colour, Columns),
        findall([-2, Row, Column], member(Column, Columns), Moves)
    ;   Moves = []
    ).

%   pending_line(+Lines, +Row0, -Row, -Colour): Row is the first full line
%   from Row0 on (0-based), of Colour.
pending_line([line(Colour0, Count)|Lines], Row0, Row, Colour) :-
    (   Count =:= Row0 + 1
    ->  Row = Row0, Colour = Colour0
    ;   Row1 is Row0 + 1,
        pending_line(Lines, Row1, Row, Colour)
    ).

%   destinations(+Wall, +Colours, +Lines, +Colour, -Ds): where Colour may
%   go: the floor (0), then each line that accepts it.
destinations(Wall, Colours, Lines, Colour, [0|Ds]) :-
    accepting(Lines, Wall, Colours, 1, Colour, Ds).

%   accepting(+Lines, +Rows, +Colours, +D, +Colour, -Ds): the lines from D
%   on that may take Colour: not full, empty or of that colour, wall row
%   without it.
accepting([], [], _, _, _, []).
accepting([line(LineColour, Count)|Lines], [Cells|Rows], Colours, D, Colour, Ds) :-
    Row is D - 1,
    (   Count < D,
        ( Count =:= 0 ; LineColour =:= Colour ),
        row_lacks(Colours, Cells, Row, Colour)
    ->  Ds = [D|Ds1]
    ;   Ds = Ds1
    ),
    D1 is D + 1,
    accepting(Lines, Rows, Colours, D1, Colour, Ds1).

%   row_lacks(+Colours, +Cells, +Row, +Colour): wall row Row (its Cells)
%   holds no tile of Colour, on the coloured wall (Colours `none`) or a
%   grey one.
row_lacks(none, Cells, Row, Colour) :-
    wall_colour(Row, Column, Colour),
    item(Column, Cells, 0).
row_lacks([C0|Colours], _, Row, Colour) :-
    item(Row, [C0|Colours], RowColours),
    \+ memberchk(Colour, RowColours).

%   source_moves(+Counts, +Source, +Allowed, -Moves0, +Moves): the moves
%   taking from one source, as a difference list.
source_moves(Counts, Source, Allowed, Moves0, Moves) :-
    colour_moves(Counts, Allowed, 0, Source, Moves0, Moves).

colour_moves([], [], _, _, Moves, Moves).
colour_moves([Count|Counts], [Ds|Allowed], Colour, Source, Moves0, Moves) :-
    (   Count > 0
    ->  destination_moves(Ds, Source, Colour, Moves0, Moves1)
    ;   Moves1 = Moves0
    ),
    Colour1 is Colour + 1,
    colour_moves(Counts, Allowed, Colour1, Source, Moves1, Moves).

destination_moves([], _, _, Moves, Moves).
destination_moves([D|Ds], Source, Colour, [[Source, Colour, D]|Moves0], Moves) :-
    destination_moves(Ds, Source, Colour, Moves0, Moves).

factory_moves([], _, _, Moves, Moves).
factory_moves([Counts|Factories], Source, Allowed, Moves0, Moves) :-
    source_moves(Counts, Source, Allowed, Moves0, Moves1),
    Source1 is Source + 1,
    factory_moves(Factories, Source1, Allowed, Moves1, Moves).

cell(Wall, Row, Column, Value) :-
    item(Row, Wall, Cells),
    item(Column, Cells, Value).

%   item(+Index, +List, ?Item): Item is List's element at Index (0-based).
item(Index, [Head|Tail], Item) :-
    (   Index =:= 0
    ->  Item = Head
    ;   Index1 is Index - 1,
        item(Index1, Tail, Item)
    ).

%!  play_move(+Id, +Move, +Randoms, -Used) is semidet.
%
%   The player to move plays Move if it is legal (else fail). When the
%   factory offer ends, the walls are tiled and scored, and either the
%   game ends with its bonuses or the next round is dealt from the first
%   Used numbers of Randoms.
%
%   ```
%   ?- numlist(1, 100, _R), new_game(doc, 2, standard, 0, _R, _), legal_moves(doc, [Move|_]),
%              play_move(doc, Move, [], Used), turn(doc, Seat).
%   Move = [0, 0, 0],
%   Used = 0,
%   Seat = 1.
%   ```
%
%   @error type_error(list(integer), Move) or type_error(list(integer), Randoms) for arguments of
%       another type; an unknown game or an illegal Move fails.

play_move(Id, Move, Randoms, Used) :-
    must_be(list(integer), Move),
    must_be(list(integer), Randoms),
    game_state(Id, State0),
    state_moves(State0, Moves),
    memberchk(Move, Moves),
    apply_move(State0, Move, Randoms, Rest, State),
    store(Id, State),
    used(Randoms, Rest, Used).

%   apply_move(+State0, +Move, +Randoms, -Rest, -State): the player to move
%   takes and places; the turn passes, or, when the factories and the
%   centre are empty, the round ends (end_round/4).
apply_move(azul(Players, Round, Moves0, Seat, Starter, offer, Marker0, Factories0, Centre0, Bag, Lid0, Boards0),
           [Source, Colour, D], Randoms, Rest, State) :-
    take(Source, Colour, Seat, Marker0, Marker, Factories0, Factories, Centre0, Centre, Taken, TookMarker),
    swap_nth0(Seat, Boards0, board(Score, Wall, Colours, Lines0, Floor0), board(Score, Wall, Colours, Lines, Floor),
              Boards),
    marker_to_floor(TookMarker, Floor0, Floor1),
    place(D, Colour, Taken, Lines0, Lines, Floor1, Floor, Lid0, Lid),
    Moves is Moves0 + 1,
    (   offer_empty(Factories, Centre)
    ->  end_round(azul(Players, Round, Moves, Seat, Starter, offer, Marker, Factories, Centre, Bag, Lid, Boards),
                  Randoms, Rest, State)
    ;   Next is (Seat + 1) mod Players,
        State = azul(Players, Round, Moves, Next, Starter, offer, Marker, Factories, Centre, Bag, Lid, Boards),
        Rest = Randoms
    ).

apply_move(azul(Players, Round, Moves, Seat, Starter, tiling, Marker, Factories, Centre, Bag, Lid0, Boards0),
           [-2, Row, Column], Randoms, Rest, State) :-
    swap_nth0(Seat, Boards0, board(Score0, Wall0, Colours0, Lines0, Floor), board(Score, Wall, Colours, Lines, Floor),
              Boards),
    swap_nth0(Row, Lines0, line(Colour, _), line(-1, 0), Lines),
    line_to(cell(Column), Row, Colour, tiling(Wall0, Colours0, Score0, Floor), tiling(Wall, Colours, Score, Floor),
            Lid0, Lid),
    tile_on(azul(Players, Round, Moves, Seat, Starter, tiling, Marker, Factories, Centre, Bag, Lid, Boards),
            Randoms, Rest, State).

%   take(+Source, +Colour, +Seat, +Marker0, -Marker, +Factories0, -Factories,
%        +Centre0, -Centre, -Taken, -TookMarker): remove all tiles of
%   Colour from Source; a factory's other tiles go to the centre; the
%   first to take from the centre takes the marker.
take(-1, Colour, Seat, Marker0, Marker, Factories, Factories, Centre0, Centre, Taken, TookMarker) :-
    swap_nth0(Colour, Centre0, Taken, 0, Centre),
    (   Marker0 == centre
    ->  Marker = Seat,
        TookMarker = true
    ;   Marker = Marker0,
        TookMarker = false
    ).
take(Source, Colour, _, Marker, Marker, Factories0, Factories, Centre0, Centre, Taken, false) :-
    Source >= 0,
    empty_counts(Empty),
    swap_nth0(Source, Factories0, Counts, Empty, Factories),
    swap_nth0(Colour, Counts, Taken, 0, Rest),
    maplist(plus, Centre0, Rest, Centre).

%   marker_to_floor(+TookMarker, +Floor0, -Floor): the marker takes the
%   first free floor slot; on a full floor it stays with its taker only.
marker_to_floor(false, Floor, Floor).
marker_to_floor(true, Floor0, Floor) :-
    floor_slots(Slots),
    length(Floor0, Used),
    (   Used < Slots
    ->  marker_item(Marker),
        append(Floor0, [Marker], Floor)
    ;   Floor = Floor0
    ).

%   place(+D, +Colour, +Taken, +Lines0, -Lines, +Floor0, -Floor, +Lid0, -Lid):
%   Taken tiles of Colour on line D (the excess to the floor) or, for D = 0,
%   all on the floor; tiles past the floor's slots go to the lid.
place(0, Colour, Taken, Lines, Lines, Floor0, Floor, Lid0, Lid) :-
    to_floor(Taken, Colour, Floor0, Floor, Lid0, Lid).
place(D, Colour, Taken, Lines0, Lines, Floor0, Floor, Lid0, Lid) :-
    D > 0,
    Line is D - 1,
    swap_nth0(Line, Lines0, line(_, Count0), line(Colour, Count), Lines),
    Fits is min(Taken, D - Count0),
    Count is Count0 + Fits,
    Excess is Taken - Fits,
    to_floor(Excess, Colour, Floor0, Floor, Lid0, Lid).

to_floor(Count, Item, Floor0, Floor, Lid0, Lid) :-
    (   Count =:= 0
    ->  Floor = Floor0, Lid = Lid0
    ;   floor_slots(Slots),
        length(Floor0, Used),
        Fits is min(Count, Slots - Used),
        length(New, Fits),
        maplist(=(Item), New),
        append(Floor0, New, Floor),
        Over is Count - Fits,
        add_count(Item, Over, Lid0, Lid)
    ).

add_count(Colour, Add, Counts0, Counts) :-
    (   Add =:= 0
    ->  Counts = Counts0
    ;   swap_nth0(Colour, Counts0, Count0, Count, Counts),
        Count is Count0 + Add
    ).

%   swap_nth0(+Index, +List0, -Old, +New, -List): List is List0 with its
%   element at Index (0-based), Old, replaced by New.
swap_nth0(Index, [Head|Tail0], Old, New, [Head1|Tail]) :-
    (   Index =:= 0
    ->  Old = Head, Head1 = New, Tail = Tail0
    ;   Head1 = Head,
        Index1 is Index - 1,
        swap_nth0(Index1, Tail0, Old, New, Tail)
    ).

offer_empty(Factories, Centre) :-
    empty_counts(Empty),
    Centre == Empty,
    maplist(==(Empty), Factories).

%   end_round(+State0, +Randoms, -Rest, -State): the factory offer is over:
%   the walls are tiled from the first seat on (tile_on/4).
end_round(azul(Players, Round, Moves, _, Starter, _, Marker, Factories, Centre, Bag, Lid, Boards),
          Randoms, Rest, State) :-
    tile_on(azul(Players, Round, Moves, 0, Starter, tiling, Marker, Factories, Centre, Bag, Lid, Boards),
            Randoms, Rest, State).

%   tile_on(+State0, +Randoms, -Rest, -State): the walls tiled from seat
%   Turn on; at a line whose owner chooses a column the game waits (phase
%   `tiling`, that seat to move); past the last seat the start passes on,
%   then the end of the game or the next round.
tile_on(azul(Players, Round, Moves, Seat, Starter0, _, Marker, Factories, Centre, Bag, Lid0, Boards0),
        Randoms, Rest, State) :-
    tile_seats(Seat, Players, Boards0, Boards, Lid0, Lid, Waiting),
    (   Waiting = waiting(Chooser)
    ->  State = azul(Players, Round, Moves, Chooser, Starter0, tiling, Marker, Factories, Centre, Bag, Lid, Boards),
        Rest = Randoms
    ;   (   Marker == centre
        ->  Starter = Starter0
        ;   Starter = Marker
        ),
        State1 = azul(Players, Round, Moves, Starter, Starter, offer, centre, Factories, Centre, Bag, Lid, Boards),
        (   (   member(board(_, Wall, _, _, _), Boards),
                complete_rows(Wall, Rows),
                Rows > 0
            ;   \+ can_end(Boards, Bag, Lid)
            )
        ->  finish(State1, State),
            Rest = Randoms
        ;   start_round(State1, Randoms, Rest, State)
        )
    ).

%   tile_seats(+Seat, +Players, +Boards0, -Boards, +Lid0, -Lid, -Waiting):
%   the walls of Seat and the seats after it tiled; Waiting is `done`, or
%   waiting(Chooser) at the first seat with a column to choose.
tile_seats(Seat, Players, Boards0, Boards, Lid0, Lid, Waiting) :-
    (   Seat >= Players
    ->  Boards = Boards0, Lid = Lid0, Waiting = done
    ;   swap_nth0(Seat, Boards0, Board0, Board, Boards1),
        tile_wall(Board0, Board, Lid0, Lid1, Status),
        (   Status == waiting
        ->  Boards = Boards1, Lid = Lid1, Waiting = waiting(Seat)
        ;   Seat1 is Seat + 1,
            tile_seats(Seat1, Players, Boards1, Boards, Lid1, Lid, Waiting)
        )
    ).

%   tile_wall(+Board0, -Board, +Lid0, -Lid, -Status): full lines top to
%   bottom move one tile to the wall (scored at once, the rest to the
%   lid; on a grey wall with no room for it, the whole line to the
%   floor); then the floor penalty, the score never below 0 (Status
%   `done`). Status is `waiting`, the floor still unpaid, at a grey wall's
%   line whose owner chooses the column.
tile_wall(board(Score0, Wall0, Colours0, Lines0, Floor0), Board, Lid0, Lid, Status) :-
    tile_lines(Lines0, 1, Lines, tiling(Wall0, Colours0, Score0, Floor0), tiling(Wall, Colours, Score1, Floor),
               Lid0, Lid1, Status),
    (   Status == waiting
    ->  Board = board(Score1, Wall, Colours, Lines, Floor),
        Lid = Lid1
    ;   length(Floor, Items),
        floor_points(Items, Penalty),
        foldl(floor_to_lid, Floor, Lid1, Lid),
        Score is max(0, Score1 - Penalty),
        Board = board(Score, Wall, Colours, Lines, [])
    ).

tile_lines([], _, [], Tiling, Tiling, Lid, Lid, done).
tile_lines([line(Colour, Count)|Lines0], D, Lines, Tiling0, Tiling, Lid0, Lid, Status) :-
    Row is D - 1,
    D1 is D + 1,
    (   Count =\= D
    ->  Lines = [line(Colour, Count)|Lines1],
        tile_lines(Lines0, D1, Lines1, Tiling0, Tiling, Lid0, Lid, Status)
    ;   Tiling0 = tiling(Wall, Colours, _, _),
        line_fate(Colours, Wall, Row, Colour, Fate),
        (   Fate == choose
        ->  Lines = [line(Colour, Count)|Lines0], Tiling = Tiling0, Lid = Lid0, Status = waiting
        ;   Lines = [line(-1, 0)|Lines1],
            line_to(Fate, Row, Colour, Tiling0, Tiling1, Lid0, Lid1),
            tile_lines(Lines0, D1, Lines1, Tiling1, Tiling, Lid1, Lid, Status)
        )
    ).

%   line_fate(+Colours, +Wall, +Row, +Colour, -Fate): what becomes of the
%   full line Row of Colour: cell(Column), its colour's cell on the
%   coloured wall (Colours `none`); on a grey wall `choose` when some
%   column may take it, else `fall`.
line_fate(none, _, Row, Colour, cell(Column)) :-
    wall_colour(Row, Column, Colour).
line_fate([C0|Colours], Wall, Row, Colour, Fate) :-
    (   grey_columns(Wall, [C0|Colours], Row, Colour, [_|_])
    ->  Fate = choose
    ;   Fate = fall
    ).

%   line_to(+Fate, +Row, +Colour, +Tiling0, -Tiling, +Lid0, -Lid): the full
%   line Row's tile onto wall cell(Column), scored, its other tiles to the
%   lid; or, `fall`, all its tiles to the floor (past its slots, the lid).
line_to(cell(Column), Row, Colour, tiling(Wall0, Colours0, Score0, Floor), tiling(Wall, Colours, Score, Floor),
        Lid0, Lid) :-
    set_cell(Wall0, Row, Column, 1, Wall),
    colour_cell(Colours0, Row, Column, Colour, Colours),
    tile_score(Wall, Row, Column, Points),
    Score is Score0 + Points,
    add_count(Colour, Row, Lid0, Lid).
line_to(fall, Row, Colour, tiling(Wall, Colours, Score, Floor0), tiling(Wall, Colours, Score, Floor), Lid0, Lid) :-
    Fallen is Row + 1,
    to_floor(Fallen, Colour, Floor0, Floor, Lid0, Lid).

colour_cell(none, _, _, _, none).
colour_cell([C0|Colours0], Row, Column, Colour, Colours) :-
    set_cell([C0|Colours0], Row, Column, Colour, Colours).

set_cell(Wall0, Row, Column, Value, Wall) :-
    swap_nth0(Row, Wall0, Cells0, Cells, Wall),
    swap_nth0(Column, Cells0, _, Value, Cells).

%   can_end(+Boards, +Bag, +Lid): some row of some wall is complete or may
%   still be completed, so the game may still end by the rules; asked
%   after a round's tiling, when no line is full and the floors are in
%   the lid. A row may still be completed when its pattern line is empty
%   or may fill (fillable/5), every colour it lacks has more tiles than
%   its row number (0-based) in the supply, and on a grey wall those
%   colours fit its free cells (row_completable/3). Judged generously: a
%   game that cannot end could never have ended by a complete row (tiles
%   of a colour stuck on lines no tile is left to fill), and ends there.
can_end(Boards, Bag, Lid) :-
    maplist(plus, Bag, Lid, Free),
    findall(waiting(Owner, Line, Held, Lacking, Tiles),
            ( nth0(Owner, Boards, board(_, _, _, Pattern, _)),
              nth0(Line, Pattern, line(Held, Tiles)),
              Tiles > 0,
              Lacking is Line + 1 - Tiles ),
            Waiting),
    fillable(Waiting, Free, [], Fillable, Supply),
    nth0(Seat, Boards, board(_, Wall, Colours, Lines, _)),
    nth0(Row, Wall, Cells),
    (   \+ memberchk(0, Cells)
    ->  true
    ;   nth0(Row, Lines, line(_, Count)),
        (   Count =:= 0
        ->  true
        ;   memberchk(Seat-Row, Fillable)
        ),
        forall(( colour(Colour, _), \+ row_holds(Colours, Wall, Row, Colour) ),
               ( nth0(Colour, Supply, Have), Have > Row )),
        (   Colours == none
        ->  true
        ;   row_completable(Wall, Colours, Row)
        )
    ),
    !.

%   fillable(+Waiting, +Supply0, +Fillable0, -Fillable, -Supply): the
%   pattern lines that may still fill, Seat-Row, and the tiles of each
%   colour that may still come to a line: Supply0 (the bag and the lid)
%   with the tiles of every line that may fill. A line may fill when what
%   it lacks is at most the supply found so far; its tiles then join the
%   supply, until no more line is found (the same lines in any order).
fillable(Waiting, Supply0, Fillable0, Fillable, Supply) :-
    (   select(waiting(Seat, Row, Colour, Lacking, Count), Waiting, Rest),
        nth0(Colour, Supply0, Have),
        Lacking =< Have
    ->  add_count(Colour, Count, Supply0, Supply1),
        fillable(Rest, Supply1, [Seat-Row|Fillable0], Fillable, Supply)
    ;   Fillable = Fillable0,
        Supply = Supply0
    ).

%   row_holds(+Colours, +Wall, +Row, +Colour): wall row Row holds a tile of
%   Colour (Colours `none`: the coloured wall, whose pattern places it).
row_holds(none, Wall, Row, Colour) :-
    wall_colour(Row, Column, Colour),
    cell(Wall, Row, Column, 1).
row_holds([C0|Colours], _, Row, Colour) :-
    nth0(Row, [C0|Colours], RowColours),
    memberchk(Colour, RowColours).

%!  row_completable(+Wall, +Colours, +Row) is semidet.
%
%   Row of a grey wall can still be completed: the colours it lacks can
%   fill its free cells, one to a cell, none in a column already holding
%   it. Bad column choices can close every row of every wall; then the
%   game ends.
%
%   ```
%   ?- length(_W, 5), maplist(=([0,0,0,0,0]), _W), length(_C, 5), maplist(=([-1,-1,-1,-1,-1]), _C),
%             ( row_completable(_W, _C, 0) -> Completable = true ; Completable = false ).
%   Completable = true.
%   ```
%
%   @error type_error(list, Colours) unless Colours is a list.

row_completable(Wall, Colours, Row) :-
    must_be(list, Colours),
    nth0(Row, Wall, Cells),
    nth0(Row, Colours, RowColours),
    findall(Column, nth0(Column, Cells, 0), Free),
    findall(Colour, ( between(0, 4, Colour), \+ memberchk(Colour, RowColours) ), Missing),
    permutation(Missing, Order),
    maplist(column_lacks(Colours), Free, Order),
    !.

column_lacks(Colours, Column, Colour) :-
    \+ ( member(ColourRow, Colours), nth0(Column, ColourRow, Colour) ).

%!  grey_columns(+Wall, +Colours, +Row, +Colour, -Columns) is det.
%
%   Columns (ascending) are those where row Row of a grey wall (Wall 0/1
%   cells, Colours the colour of each tile, -1 for none) may take Colour:
%   a free cell whose column holds no tile of Colour.
%
%   ```
%   ?- _W = [[1,0,0,0,0], 0,0,0,0,0], 0,0,0,0,0], 0,0,0,0,0], 0,0,0,0,0]], _C = [[2,-1,-1,-1,-1],
%      -1,-1,-1,-1,-1], -1,-1,-1,-1,-1], -1,-1,-1,-1,-1], -1,-1,-1,-1,-1]], grey_columns(_W, _C, 1, 2,
%      Columns).
%   Columns = [1, 2, 3, 4].
%   ```
%
%   @error type_error(list, Colours) unless Colours is a list.

grey_columns(Wall, Colours, Row, Colour, Columns) :-
    must_be(list, Colours),
    nth0(Row, Wall, Cells),
    findall(Column, ( nth0(Column, Cells, 0), column_lacks(Colours, Column, Colour) ), Columns).

floor_to_lid(Item, Lid0, Lid) :-
    (   marker_item(Item)
    ->  Lid = Lid0
    ;   add_count(Item, 1, Lid0, Lid)
    ).

%!  floor_points(+Items, -Points) is det.
%
%   Points lost for a floor holding Items (the marker counts; nothing
%   more past the last slot).
%
%   ```
%   ?- floor_points(9, Points).
%   Points = 14.
%   ```
%
%   @error type_error(evaluable, Items) (of the arithmetic) unless Items is a number.

floor_points(Items, Points) :-
    floor_slots(Slots),
    Capped is min(Items, Slots),
    floor_total(Capped, Points).

%!  tile_score(+Wall, +Row, +Column, -Points) is det.
%
%   Points for the tile just placed at (Row, Column) of Wall: 1 when it
%   has no orthogonal neighbour, else the horizontal run through it (if
%   longer than 1) plus the vertical run (likewise).
%
%   ```
%   ?- tile_score([[1,1,1,0,0],[0,0,1,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]], 0, 2, Points).
%   Points = 5.
%   ```
%
%   @error none: a Wall that is no 5x5 list of 0/1 rows fails.

tile_score(Wall, Row, Column, Points) :-
    run(Wall, left, Row, Column, Left),
    run(Wall, right, Row, Column, Right),
    run(Wall, up, Row, Column, Up),
    run(Wall, down, Row, Column, Down),
    H is 1 + Left + Right,
    V is 1 + Up + Down,
    run_points(H, V, Points).

run_points(H, V, Points) :-
    (   H =:= 1, V =:= 1
    ->  Points = 1
    ;   counted(H, HP),
        counted(V, VP),
        Points is HP + VP
    ).

counted(Run, Points) :-
    (   Run > 1
    ->  Points = Run
    ;   Points = 0
    ).

run(Wall, Direction, Row, Column, Length) :-
    (   step(Direction, Row, Column, Row1, Column1),
        cell(Wall, Row1, Column1, 1)
    ->  run(Wall, Direction, Row1, Column1, Length0),
        Length is Length0 + 1
    ;   Length = 0
    ).

%   complete_rows(+Wall, -Rows): how many wall rows are full.
complete_rows(Wall, Rows) :-
    aggregate_all(count, (member(Cells, Wall), \+ memberchk(0, Cells)), Rows).

%!  end_bonus(+Wall, -Points) is det.
%
%   End-of-game bonus of a coloured Wall: per complete row, column and colour.
%
%   ```
%   ?- end_bonus([[1,1,1,1,1],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]], Points).
%   Points = 2.
%   ```
%
%   @error none: a Wall that is no 5x5 list of 0/1 rows fails.

end_bonus(Wall, Points) :-
    end_bonus(Wall, none, Points).

%!  end_bonus(+Wall, +Colours, -Points) is det.
%
%   End-of-game bonus of Wall, coloured (Colours `none`) or grey (Colours
%   the colour of each tile): per complete row, column and colour.
%
%   ```
%   ?- end_bonus([[1,1,1,1,1],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]], none, Points).
%   Points = 2.
%   ```
%
%   @error none: as end_bonus/2.

end_bonus(Wall, WallColours, Points) :-
    complete_rows(Wall, Rows),
    aggregate_all(count, (between(0, 4, C), forall(member(Cells, Wall), nth0(C, Cells, 1))), Columns),
    complete_colours(WallColours, Wall, Colours),
    bonus(row, RowBonus),
    bonus(column, ColumnBonus),
    bonus(colour, ColourBonus),
    Points is RowBonus * Rows + ColumnBonus * Columns + ColourBonus * Colours.

%   complete_colours(+Colours, +Wall, -Count): how many colours have all
%   five tiles on the wall.
complete_colours(none, Wall, Count) :-
    aggregate_all(count, (colour_diagonal(_, Cells), forall(member(R-C, Cells), cell(Wall, R, C, 1))), Count).
complete_colours([C0|Colours], _, Count) :-
    aggregate_all(count, (colour(Colour, _),
                          aggregate_all(count, (member(Row, [C0|Colours]), memberchk(Colour, Row)), 5)),
                  Count).

%   finish(+State0, -State): the game ends; every seat gets its bonuses.
finish(azul(Players, Round, Moves, _, Starter, _, Marker, Factories, Centre, Bag, Lid, Boards0),
       azul(Players, Round, Moves, -1, Starter, over, Marker, Factories, Centre, Bag, Lid, Boards)) :-
    maplist(add_bonus, Boards0, Boards).

add_bonus(board(Score0, Wall, Colours, Lines, Floor), board(Score, Wall, Colours, Lines, Floor)) :-
    end_bonus(Wall, Colours, Bonus),
    Score is Score0 + Bonus.

%   start_round(+State0, +Randoms, -Rest, -State): deal the factories from
%   the bag (then the lid); when no tile at all can be dealt, the game ends.
start_round(azul(Players, Round0, Moves, Turn, Starter, Phase, Marker, Factories0, Centre, Bag0, Lid0, Boards),
            Randoms, Rest, State) :-
    tiles_per_factory(PerFactory),
    sum_list(Bag0, Size0),
    foldl(fill_factory(PerFactory), Factories0, Factories,
          deal(Bag0, Size0, Lid0, Randoms, 0), deal(Bag, _, Lid, Rest, Dealt)),
    (   Dealt =:= 0
    ->  finish(azul(Players, Round0, Moves, Turn, Starter, Phase, Marker, Factories, Centre, Bag, Lid, Boards), State)
    ;   Round is Round0 + 1,
        State = azul(Players, Round, Moves, Turn, Starter, Phase, Marker, Factories, Centre, Bag, Lid, Boards)
    ).

fill_factory(PerFactory, _, Counts, Deal0, Deal) :-
    empty_counts(Empty),
    length(Slots, PerFactory),
    foldl(draw_tile, Slots, Empty-Deal0, Counts-Deal).

%   draw_tile(+Slot, +Counts0-Deal0, -Counts-Deal): one tile from the bag
%   (the lid poured in once the bag is empty) onto a factory; Deal is
%   deal(Bag, BagSize, Lid, Randoms, Dealt).
draw_tile(_, Counts0-deal(Bag0, InBag, Lid0, Randoms0, Dealt0), Counts-deal(Bag, Size, Lid, Randoms, Dealt)) :-
    (   InBag > 0
    ->  Bag1 = Bag0, Lid1 = Lid0, Size1 = InBag
    ;   Bag1 = Lid0, empty_counts(Lid1), sum_list(Bag1, Size1)
    ),
    (   Size1 > 0
    ->  Randoms0 = [Random|Randoms],
        Index is Random mod Size1,
        pick(Bag1, Index, 0, Colour),
        add_count(Colour, -1, Bag1, Bag),
        add_count(Colour, 1, Counts0, Counts),
        Size is Size1 - 1,
        Lid = Lid1,
        Dealt is Dealt0 + 1
    ;   Bag = Bag1, Size = 0, Lid = Lid1, Randoms = Randoms0, Counts = Counts0, Dealt = Dealt0
    ).

%   pick(+Counts, +Index, +Colour0, -Colour): the colour of tile Index
%   when the bag's tiles are laid out by colour.
pick([Count|Counts], Index, Colour0, Colour) :-
    (   Index < Count
    ->  Colour = Colour0
    ;   Index1 is Index - Count,
        Colour1 is Colour0 + 1,
        pick(Counts, Index1, Colour1, Colour)
    ).

%!  random_game(+Id, +Players, +Variant, +Starter, +Randoms, -Used, -Status) is semidet.
%
%   new_game/6 then run_random_game/4 on the numbers left: a whole game
%   (or as much of it as Randoms allows, Status `more`) in one call.
%
%   ```
%   ?- numlist(1, 3000, _R), random_game(doc, 2, standard, 0, _R, _, Status), winners(doc, Seats).
%   Status = over,
%   Seats = [0].
%   ```
%
%   @error as new_game/6.

random_game(Id, Players, Variant, Starter, Randoms, Used, Status) :-
    new_game(Id, Players, Variant, Starter, Randoms, Dealt),
    length(Prefix, Dealt),
    append(Prefix, Rest, Randoms),
    run_random_game(Id, Rest, Played, Status),
    Used is Dealt + Played.

%!  random_games(+Players, +Variant, +Games, -Results) is det.
%
%   Many games of the random-feasible strategy in one call, each Game
%   [Id, Starter, Randoms] played by random_game/7 as far as its Randoms
%   allow; Results has one [Used, Status, Text, Seats] per game, as
%   game_result/4 gives them.
%
%   ```
%   ?- numlist(1, 3000, _R), random_games(2, standard, [[g1, 0, _R]], [[_, Status, _, Seats]]).
%   Status = over,
%   Seats = [0].
%   ```
%
%   @error type_error(list, Games) unless Games is a list; as new_game/6 for the rest.

random_games(Players, Variant, Games, Results) :-
    must_be(list, Games),
    maplist(random_game_result(Players, Variant), Games, Results).

random_game_result(Players, Variant, [Id, Starter, Randoms], [Used, Status, Text, Seats]) :-
    random_game(Id, Players, Variant, Starter, Randoms, Used, Status),
    game_result(Id, Status, Text, Seats).

%!  game_result(+Id, +Status, -Text, -Seats) is det.
%
%   For a game that is `over`: its final state as JSON text
%   (state_text/2) and its winners, and the game is dropped; for one with
%   `more` to play: '' and [], and the game stays (run_random_game/4 goes on).
%
%   ```
%   ?- numlist(1, 50, _R), new_game(doc, 2, standard, 0, _R, _), game_result(doc, more, Text, Seats).
%   Text = '',
%   Seats = [].
%   ```
%
%   @error none: an unknown game fails.

game_result(Id, over, Text, Seats) :-
    state_text(Id, Text),
    winners(Id, Seats),
    drop_game(Id).
game_result(_, more, '', []).

%!  run_random_game(+Id, +Randoms, -Used, -Status) is det.
%
%   Play game Id on with the original random-feasible strategy: a move
%   chosen uniformly (one number of Randoms, modulo) among those putting
%   a tile on a pattern line, else among all legal moves; a grey wall's
%   column uniformly among those allowed. Status is
%   `over`, or `more` when Randoms ran short of one move plus a full deal.
%
%   ```
%   ?- numlist(1, 100, _R), new_game(doc, 2, standard, 0, _R, _), run_random_game(doc, [], Used,
%              Status).
%   Used = 0,
%   Status = more.
%   ```
%
%   @error type_error(list(integer), Randoms) unless Randoms is a list of integers; an unknown game
%       fails.

run_random_game(Id, Randoms, Used, Status) :-
    must_be(list(integer), Randoms),
    game_state(Id, State0),
    arg(1, State0, Players),
    factories_for(Players, Factories),
    tiles_per_factory(PerFactory),
    Reserve is Factories * PerFactory,
    length(Randoms, Left),
    random_turns(State0, Reserve, Left, Randoms, Rest, Status, State),
    store(Id, State),
    used(Randoms, Rest, Used).

%   random_turns(+State0, +Reserve, +Left, +Randoms0, -Randoms, -Status,
%   -State): Left is the length of Randoms0, kept so that it is not
%   counted each turn.
random_turns(State0, Reserve, Left, Randoms0, Randoms, Status, State) :-
    (   arg(6, State0, over)
    ->  Randoms = Randoms0, Status = over, State = State0
    ;   Left > Reserve
    ->  Randoms0 = [Random|Randoms1],
        state_moves(State0, Moves),
        random_feasible(Moves, Random, Move),
        apply_move(State0, Move, Randoms1, Randoms2, State1),
        deal_used(Randoms1, Randoms2, Reserve, Dealt),
        Left1 is Left - 1 - Dealt,
        random_turns(State1, Reserve, Left1, Randoms2, Randoms, Status, State)
    ;   Randoms = Randoms0, Status = more, State = State0
    ).

%   deal_used(+Before, +After, +Reserve, -Used): how many numbers a move
%   used (at most Reserve, for a deal), without counting the whole list.
deal_used(Before, After, Reserve, Used) :-
    (   Before == After
    ->  Used = 0
    ;   between(1, Reserve, Used),
        length(Prefix, Used),
        append(Prefix, After, Before)
    ->  true
    ).

random_feasible(Moves, Random, Move) :-
    feasible(Moves, Feasible, 0, Size0),
    (   Size0 =:= 0
    ->  Pool = Moves,
        length(Pool, Size)
    ;   Pool = Feasible,
        Size = Size0
    ),
    Index is Random mod Size,
    nth0(Index, Pool, Move).

%   feasible(+Moves, -Feasible, +Size0, -Size): the moves putting a tile
%   on a pattern line or, in the tiling phase, on the wall, and how many
%   (plus Size0).
feasible([], [], Size, Size).
feasible([[Source, Colour, D]|Moves], Feasible, Size0, Size) :-
    (   ( D > 0 ; Source =:= -2 )
    ->  Feasible = [[Source, Colour, D]|Feasible1],
        Size1 is Size0 + 1
    ;   Feasible = Feasible1,
        Size1 = Size0
    ),
    feasible(Moves, Feasible1, Size1, Size).

%!  winners(+Id, -Seats) is det.
%
%   The seats that win game Id (or lead it): highest score, a tie going
%   to more complete rows, a tie after that shared.
%
%   ```
%   ?- numlist(1, 100, _R), new_game(doc, 2, standard, 0, _R, _), winners(doc, Seats).
%   Seats = [0, 1].
%   ```
%
%   @error none: an unknown game fails.

winners(Id, Seats) :-
    game_state(Id, State),
    arg(12, State, Boards),
    findall(Score, member(board(Score, _, _, _, _), Boards), Scores),
    findall(Rows, (member(board(_, Wall, _, _, _), Boards), complete_rows(Wall, Rows)), RowCounts),
    winners_of(Scores, RowCounts, Seats).

%!  winners_of(+Scores, +Rows, -Seats) is det.
%
%   Seats (0-based, ascending) with the highest score in Scores, ties
%   broken by the most complete rows in Rows, then shared.
%
%   ```
%   ?- winners_of([10, 12, 12], [1, 0, 2], Seats).
%   Seats = [2].
%   ```
%
%   @error none: Scores and Rows of other forms fail.

winners_of(Scores, Rows, Seats) :-
    max_list(Scores, Best),
    findall(Seat-R, (nth0(Seat, Scores, Best), nth0(Seat, Rows, R)), Tied),
    pairs_values(Tied, TiedRows),
    max_list(TiedRows, Most),
    findall(Seat, member(Seat-Most, Tied), Seats).

%!  export_state(+Id, -State) is det.
%
%   State is game Id as plain lists: [Players, Round, Moves, Turn,
%   Starter, Marker, Factories, Centre, Bag, Lid, Boards, Phase, Variant]
%   with Marker -1 for the centre, Boards one [Score, Wall, Lines, Floor,
%   Colours] per seat (Lines as [Colour, Count] pairs, Colours `none` on a
%   coloured wall), Phase `offer`, `tiling` or `over`, Variant `standard`
%   or `grey`.
%
%   ```
%   ?- numlist(1, 100, _R), new_game(doc, 2, grey, 0, _R, _), export_state(doc, [Players, Round|_]).
%   Players = 2,
%   Round = 1.
%   ```
%
%   @error none: an unknown game fails.

export_state(Id, List) :-
    game_state(Id, State),
    state_list(State, List).

%   state_list(?State, ?List): a state term and its plain lists (export_state/2).
state_list(azul(Players, Round, Moves, Turn, Starter, Phase, Holder, Factories, Centre, Bag, Lid, Boards),
           [Players, Round, Moves, Turn, Starter, Marker, Factories, Centre, Bag, Lid, Lists, Phase, Variant]) :-
    maplist(board_list, Boards, Lists),
    must_be(oneof([offer, tiling, over]), Phase),
    holder_marker(Holder, Marker),
    (   Boards = [board(_, _, none, _, _)|_]
    ->  Variant = standard
    ;   Variant = grey
    ).

board_list(board(Score, Wall, Colours, Lines, Floor), [Score, Wall, Pairs, Floor, Colours]) :-
    maplist(line_pair, Lines, Pairs).

holder_marker(Holder, Marker) :-
    (   Holder == centre
    ->  Marker = -1
    ;   Marker == -1
    ->  Holder = centre
    ;   Holder = Marker
    ).

%!  state_text(+Id, -Text) is det.
%
%   Text is export_state/2's State written as JSON (atoms other than
%   true and false as strings): one value through the bridge instead of a
%   few hundred terms.
%
%   ```
%   ?- numlist(1, 100, _R), new_game(doc, 2, standard, 0, _R, _), state_text(doc, _Text),
%              sub_atom(_Text, 0, 8, _, Start).
%   Start = '[2,1,0,0'.
%   ```
%
%   @error none: an unknown game fails.

state_text(Id, Text) :-
    export_state(Id, State),
    json_term(State, Json),
    format(atom(Text), '~q', [Json]).

json_term(Term, Json) :-
    (   is_list(Term)
    ->  maplist(json_term, Term, Json)
    ;   atom(Term), \+ memberchk(Term, [true, false, []])
    ->  atom_string(Term, Json)
    ;   Json = Term
    ).

line_pair(line(Colour, Count), [Colour, Count]).

%!  import_state(+Id, +State) is det.
%
%   Make game Id the game State (in the form export_state/2 gives; the
%   variant is the boards' own: Colours `none` or a grey wall's colours).
%
%   ```
%   ?- numlist(1, 100, _R), new_game(doc, 2, standard, 0, _R, _), export_state(doc, _S),
%              import_state(copy, _S), turn(copy, Seat).
%   Seat = 0.
%   ```
%
%   @error type_error(list, State) unless State is a list; type_error(oneof([offer, tiling, over]),
%       Phase) for another phase.

import_state(Id, List) :-
    must_be(list, List),
    state_list(State, List),
    store(Id, State).
