:- module(azul,
          [ new_game/5,            % +Id, +Players, +Starter, +Randoms, -Used
            legal_moves/2,         % +Id, -Moves
            play_move/4,           % +Id, +Move, +Randoms, -Used
            run_random_game/4,     % +Id, +Randoms, -Used, -Status
            random_game/6,         % +Id, +Players, +Starter, +Randoms, -Used, -Status
            export_state/2,        % +Id, -State
            import_state/2,        % +Id, +State
            winners/2,             % +Id, -Seats
            drop_game/1,           % +Id
            tile_score/4,          % +Wall, +Row, +Column, -Points
            end_bonus/2,           % +Wall, -Points
            floor_points/2,        % +Items, -Points
            winners_of/3           % +Scores, +Rows, -Seats
          ]).

/** <module> Azul: the rules, over the game state as dynamic predicates

The state of each game lives in dynamic facts keyed by a game id, so
several games are alive at once:

  - game(Id, Players, Round, Moves, Turn, Starter, Phase): Phase is
    `offer` or `over`; Turn is the seat to move (-1 once over);
  - factories(Id, Factories): one list of 5 colour counts per factory;
  - centre(Id, Counts), bag(Id, Counts), lid(Id, Counts);
  - marker(Id, Holder): `centre` or the seat that took it this round;
  - player(Id, Seat, Score, Wall, Lines, Floor): Wall 5 rows of 5 cells
    0/1, Lines 5 terms line(Colour, Count) (Colour -1 when empty), Floor
    a list of colours (5 is the marker).

A move is [Source, Colour, Destination]: Source -1 is the centre, 0.. a
factory; Destination 0 the floor, 1..5 a pattern line. Randomness comes
in as data: a list of integers, one read per tile drawn (index into the
bag modulo its size) and one per move the random strategy chooses.
*/

:- use_module(azul_facts).
:- use_module(library(lists)).
:- use_module(library(apply)).

:- dynamic game/7, factories/2, centre/2, bag/2, lid/2, marker/2, player/6.

%!  new_game(+Id, +Players, +Starter, +Randoms, -Used) is semidet.
%
%   Start game Id for Players with seat Starter to open, and deal round 1
%   with the first Used numbers of Randoms. Replaces any game Id.

new_game(Id, Players, Starter, Randoms, Used) :-
    factories_for(Players, Count),
    full_bag(Bag),
    empty_counts(Empty),
    length(Factories, Count),
    maplist(=(Empty), Factories),
    empty_board(Board),
    length(Boards, Players),
    maplist(=(Board), Boards),
    import_state(Id, [Players, 0, 0, Starter, Starter, -1, Factories, Empty, Bag, Empty, Boards, false]),
    start_round(Id, Randoms, Rest),
    used(Randoms, Rest, Used).

empty_counts([0, 0, 0, 0, 0]).

%   empty_board(-Board): a board at the start, as export_state/2 gives it.
empty_board([0, Wall, Pairs, []]) :-
    length(Wall, 5),
    maplist(empty_row, Wall),
    length(Pairs, 5),
    maplist(=([-1, 0]), Pairs).

empty_row(Row) :-
    length(Row, 5),
    maplist(=(0), Row).

used(Randoms, Rest, Used) :-
    length(Randoms, Before),
    length(Rest, After),
    Used is Before - After.

%!  drop_game(+Id) is det.
%
%   Forget every fact of game Id.

drop_game(Id) :-
    maplist(retractall, [game(Id, _, _, _, _, _, _), factories(Id, _), centre(Id, _), bag(Id, _),
                         lid(Id, _), marker(Id, _), player(Id, _, _, _, _, _)]).

%!  legal_moves(+Id, -Moves) is det.
%
%   Moves are the legal moves [Source, Colour, Destination] of the player
%   to move, centre first, then factories; colours and destinations
%   ascending. A full line is never a destination; the floor always is.
%   Empty once the game is over.

legal_moves(Id, Moves) :-
    game(Id, _, _, _, Seat, _, Phase),
    (   Phase == offer
    ->  player(Id, Seat, _, Wall, Lines, _),
        maplist(destinations(Wall, Lines), [0, 1, 2, 3, 4], Allowed),
        centre(Id, Centre),
        factories(Id, Factories),
        source_moves(Centre, -1, Allowed, Moves, Moves1),
        factory_moves(Factories, 0, Allowed, Moves1, [])
    ;   Moves = []
    ).

%   destinations(+Wall, +Lines, +Colour, -Ds): where Colour may go: the
%   floor (0), then each line that accepts it.
destinations(Wall, Lines, Colour, [0|Ds]) :-
    accepting(Lines, Wall, 1, Colour, Ds).

%   accepting(+Lines, +Rows, +D, +Colour, -Ds): the lines from D on that
%   may take Colour: not full, empty or of that colour, wall row without it.
accepting([], [], _, _, []).
accepting([line(LineColour, Count)|Lines], [Cells|Rows], D, Colour, Ds) :-
    (   Count < D,
        ( Count =:= 0 ; LineColour =:= Colour ),
        Row is D - 1,
        wall_colour(Row, Column, Colour),
        nth0(Column, Cells, 0)
    ->  Ds = [D|Ds1]
    ;   Ds = Ds1
    ),
    D1 is D + 1,
    accepting(Lines, Rows, D1, Colour, Ds1).

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
    nth0(Row, Wall, Cells),
    nth0(Column, Cells, Value).

%!  play_move(+Id, +Move, +Randoms, -Used) is semidet.
%
%   The player to move plays Move if it is legal (else fail). When the
%   factory offer ends, the walls are tiled and scored, and either the
%   game ends with its bonuses or the next round is dealt from the first
%   Used numbers of Randoms.

play_move(Id, Move, Randoms, Used) :-
    legal_moves(Id, Moves),
    memberchk(Move, Moves),
    apply_move(Id, Move, Randoms, Rest),
    used(Randoms, Rest, Used).

apply_move(Id, [Source, Colour, D], Randoms, Rest) :-
    game(Id, _, _, _, Seat, _, offer),
    take(Id, Seat, Source, Colour, Taken, TookMarker),
    retract(player(Id, Seat, Score, Wall, Lines0, Floor0)),
    retract(lid(Id, Lid0)),
    marker_to_floor(TookMarker, Floor0, Floor1),
    place(D, Colour, Taken, Lines0, Lines, Floor1, Floor, Lid0, Lid),
    assertz(lid(Id, Lid)),
    assertz(player(Id, Seat, Score, Wall, Lines, Floor)),
    after_move(Id, Randoms, Rest).

%   take(+Id, +Seat, +Source, +Colour, -Taken, -TookMarker): remove all
%   tiles of Colour from Source; a factory's other tiles go to the centre;
%   the first to take from the centre takes the marker.
take(Id, Seat, -1, Colour, Taken, TookMarker) :-
    retract(centre(Id, Centre0)),
    nth0(Colour, Centre0, Taken, Others),
    nth0(Colour, Centre, 0, Others),
    assertz(centre(Id, Centre)),
    (   retract(marker(Id, centre))
    ->  assertz(marker(Id, Seat)),
        TookMarker = true
    ;   TookMarker = false
    ).
take(Id, _, Source, Colour, Taken, false) :-
    Source >= 0,
    retract(factories(Id, Factories0)),
    nth0(Source, Factories0, Counts, OtherFactories),
    empty_counts(Empty),
    nth0(Source, Factories, Empty, OtherFactories),
    assertz(factories(Id, Factories)),
    nth0(Colour, Counts, Taken, Others),
    nth0(Colour, Rest, 0, Others),
    retract(centre(Id, Centre0)),
    maplist(plus, Centre0, Rest, Centre),
    assertz(centre(Id, Centre)).

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
    nth1(D, Lines0, line(_, Count0), Others),
    Fits is min(Taken, D - Count0),
    Count is Count0 + Fits,
    nth1(D, Lines, line(Colour, Count), Others),
    Excess is Taken - Fits,
    to_floor(Excess, Colour, Floor0, Floor, Lid0, Lid).

to_floor(Count, Item, Floor0, Floor, Lid0, Lid) :-
    floor_slots(Slots),
    length(Floor0, Used),
    Fits is min(Count, Slots - Used),
    length(New, Fits),
    maplist(=(Item), New),
    append(Floor0, New, Floor),
    Over is Count - Fits,
    add_count(Item, Over, Lid0, Lid).

add_count(Colour, Add, Counts0, Counts) :-
    (   Add =:= 0
    ->  Counts = Counts0
    ;   nth0(Colour, Counts0, Count0, Others),
        Count is Count0 + Add,
        nth0(Colour, Counts, Count, Others)
    ).

%   after_move(+Id, +Randoms, -Rest): pass the turn, or end the round
%   when every factory and the centre are empty.
after_move(Id, Randoms, Rest) :-
    retract(game(Id, Players, Round, Moves0, Seat, Starter, offer)),
    Moves is Moves0 + 1,
    Next is (Seat + 1) mod Players,
    assertz(game(Id, Players, Round, Moves, Next, Starter, offer)),
    (   offer_empty(Id)
    ->  end_round(Id, Randoms, Rest)
    ;   Rest = Randoms
    ).

offer_empty(Id) :-
    empty_counts(Empty),
    centre(Id, Empty),
    factories(Id, Factories),
    maplist(==(Empty), Factories).

%   end_round(+Id, +Randoms, -Rest): the wall tiling of every player,
%   then the end of the game or the next round.
end_round(Id, Randoms, Rest) :-
    game(Id, Players, _, _, _, _, _),
    Last is Players - 1,
    forall(between(0, Last, Seat), tile_wall(Id, Seat)),
    retract(marker(Id, Holder)),
    assertz(marker(Id, centre)),
    retract(game(Id, Players, Round, Moves, _, Starter0, offer)),
    (   Holder == centre
    ->  Starter = Starter0
    ;   Starter = Holder
    ),
    assertz(game(Id, Players, Round, Moves, Starter, Starter, offer)),
    (   player(Id, _, _, Wall, _, _),
        complete_rows(Wall, Rows),
        Rows > 0
    ->  finish(Id),
        Rest = Randoms
    ;   start_round(Id, Randoms, Rest)
    ).

%   tile_wall(+Id, +Seat): full lines top to bottom move one tile to the
%   wall (scored at once, the rest to the lid); then the floor penalty;
%   the score never drops below 0.
tile_wall(Id, Seat) :-
    retract(player(Id, Seat, Score0, Wall0, Lines0, Floor)),
    retract(lid(Id, Lid0)),
    tile_lines(Lines0, 1, Lines, Wall0, Wall, Score0, Score1, Lid0, Lid1),
    length(Floor, Items),
    floor_points(Items, Penalty),
    foldl(floor_to_lid, Floor, Lid1, Lid),
    Score is max(0, Score1 - Penalty),
    assertz(lid(Id, Lid)),
    assertz(player(Id, Seat, Score, Wall, Lines, [])).

tile_lines([], _, [], Wall, Wall, Score, Score, Lid, Lid).
tile_lines([line(Colour, Count)|Lines0], D, [Line|Lines], Wall0, Wall, Score0, Score, Lid0, Lid) :-
    (   Count =:= D
    ->  Row is D - 1,
        wall_colour(Row, Column, Colour),
        set_cell(Wall0, Row, Column, Wall1),
        tile_score(Wall1, Row, Column, Points),
        Score1 is Score0 + Points,
        add_count(Colour, Row, Lid0, Lid1),
        Line = line(-1, 0)
    ;   Wall1 = Wall0, Score1 = Score0, Lid1 = Lid0,
        Line = line(Colour, Count)
    ),
    D1 is D + 1,
    tile_lines(Lines0, D1, Lines, Wall1, Wall, Score1, Score, Lid1, Lid).

set_cell(Wall0, Row, Column, Wall) :-
    nth0(Row, Wall0, Cells0, OtherRows),
    nth0(Column, Cells0, _, OtherCells),
    nth0(Column, Cells, 1, OtherCells),
    nth0(Row, Wall, Cells, OtherRows).

floor_to_lid(Item, Lid0, Lid) :-
    (   marker_item(Item)
    ->  Lid = Lid0
    ;   add_count(Item, 1, Lid0, Lid)
    ).

%!  floor_points(+Items, -Points) is det.
%
%   Points lost for a floor holding Items (the marker counts; nothing
%   more past the last slot).

floor_points(Items, Points) :-
    floor_slots(Slots),
    Capped is min(Items, Slots),
    floor_total(Capped, Points).

%!  tile_score(+Wall, +Row, +Column, -Points) is det.
%
%   Points for the tile just placed at (Row, Column) of Wall: 1 when it
%   has no orthogonal neighbour, else the horizontal run through it (if
%   longer than 1) plus the vertical run (likewise).

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
%   End-of-game bonus of Wall: per complete row, column and colour.

end_bonus(Wall, Points) :-
    complete_rows(Wall, Rows),
    aggregate_all(count, (between(0, 4, C), forall(member(Cells, Wall), nth0(C, Cells, 1))), Columns),
    aggregate_all(count, (colour_diagonal(_, Cells), forall(member(R-C, Cells), cell(Wall, R, C, 1))), Colours),
    bonus(row, RowBonus),
    bonus(column, ColumnBonus),
    bonus(colour, ColourBonus),
    Points is RowBonus * Rows + ColumnBonus * Columns + ColourBonus * Colours.

finish(Id) :-
    retract(game(Id, Players, Round, Moves, _, Starter, _)),
    assertz(game(Id, Players, Round, Moves, -1, Starter, over)),
    findall(player(Id, Seat, Score, Wall, Lines, Floor),
            ( retract(player(Id, Seat, Score0, Wall, Lines, Floor)),
              end_bonus(Wall, Bonus),
              Score is Score0 + Bonus
            ),
            Players1),
    maplist(assertz, Players1).

%   start_round(+Id, +Randoms, -Rest): deal the factories from the bag
%   (then the lid); when no tile at all can be dealt, the game ends.
start_round(Id, Randoms, Rest) :-
    retract(bag(Id, Bag0)),
    retract(lid(Id, Lid0)),
    retract(factories(Id, Factories0)),
    tiles_per_factory(PerFactory),
    foldl(fill_factory(PerFactory), Factories0, Factories,
          deal(Bag0, Lid0, Randoms, 0), deal(Bag, Lid, Rest, Dealt)),
    assertz(bag(Id, Bag)),
    assertz(lid(Id, Lid)),
    assertz(factories(Id, Factories)),
    (   Dealt =:= 0
    ->  finish(Id)
    ;   retract(game(Id, Players, Round0, Moves, Turn, Starter, Phase)),
        Round is Round0 + 1,
        assertz(game(Id, Players, Round, Moves, Turn, Starter, Phase))
    ).

fill_factory(PerFactory, _, Counts, Deal0, Deal) :-
    empty_counts(Empty),
    length(Slots, PerFactory),
    foldl(draw_tile, Slots, Empty-Deal0, Counts-Deal).

draw_tile(_, Counts0-deal(Bag0, Lid0, Randoms0, Dealt0), Counts-deal(Bag, Lid, Randoms, Dealt)) :-
    sum_list(Bag0, InBag),
    (   InBag > 0
    ->  Bag1 = Bag0, Lid1 = Lid0
    ;   Bag1 = Lid0, empty_counts(Lid1)
    ),
    sum_list(Bag1, Size),
    (   Size > 0
    ->  Randoms0 = [Random|Randoms],
        Index is Random mod Size,
        pick(Bag1, Index, 0, Colour),
        add_count(Colour, -1, Bag1, Bag),
        add_count(Colour, 1, Counts0, Counts),
        Lid = Lid1,
        Dealt is Dealt0 + 1
    ;   Bag = Bag1, Lid = Lid1, Randoms = Randoms0, Counts = Counts0, Dealt = Dealt0
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

%!  random_game(+Id, +Players, +Starter, +Randoms, -Used, -Status) is semidet.
%
%   new_game/5 then run_random_game/4 on the numbers left: a whole game
%   (or as much of it as Randoms allows, Status `more`) in one call.

random_game(Id, Players, Starter, Randoms, Used, Status) :-
    new_game(Id, Players, Starter, Randoms, Dealt),
    length(Prefix, Dealt),
    append(Prefix, Rest, Randoms),
    run_random_game(Id, Rest, Played, Status),
    Used is Dealt + Played.

%!  run_random_game(+Id, +Randoms, -Used, -Status) is det.
%
%   Play game Id on with the original random-feasible strategy: a move
%   chosen uniformly (one number of Randoms, modulo) among those putting
%   a tile on a pattern line, else among all legal moves. Status is
%   `over`, or `more` when Randoms ran short of one move plus a full deal.

run_random_game(Id, Randoms, Used, Status) :-
    game(Id, Players, _, _, _, _, _),
    factories_for(Players, Factories),
    tiles_per_factory(PerFactory),
    Reserve is Factories * PerFactory,
    length(Randoms, Left),
    random_turns(Id, Reserve, Left, Randoms, Rest, Status),
    used(Randoms, Rest, Used).

%   random_turns(+Id, +Reserve, +Left, +Randoms0, -Randoms, -Status): Left
%   is the length of Randoms0, kept so that it is not counted each turn.
random_turns(Id, Reserve, Left, Randoms0, Randoms, Status) :-
    (   game(Id, _, _, _, _, _, over)
    ->  Randoms = Randoms0, Status = over
    ;   Left > Reserve
    ->  Randoms0 = [Random|Randoms1],
        legal_moves(Id, Moves),
        random_feasible(Moves, Random, Move),
        apply_move(Id, Move, Randoms1, Randoms2),
        deal_used(Randoms1, Randoms2, Reserve, Dealt),
        Left1 is Left - 1 - Dealt,
        random_turns(Id, Reserve, Left1, Randoms2, Randoms, Status)
    ;   Randoms = Randoms0, Status = more
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
    include(feasible, Moves, Feasible),
    (   Feasible == []
    ->  Pool = Moves
    ;   Pool = Feasible
    ),
    length(Pool, Size),
    Index is Random mod Size,
    nth0(Index, Pool, Move).

feasible([_, _, D]) :-
    D > 0.

%!  winners(+Id, -Seats) is det.
%
%   The seats that win game Id (or lead it): highest score, a tie going
%   to more complete rows, a tie after that shared.

winners(Id, Seats) :-
    findall(Score, player(Id, _, Score, _, _, _), Scores),
    findall(Rows, (player(Id, _, _, Wall, _, _), complete_rows(Wall, Rows)), RowCounts),
    winners_of(Scores, RowCounts, Seats).

%!  winners_of(+Scores, +Rows, -Seats) is det.
%
%   Seats (0-based, ascending) with the highest score in Scores, ties
%   broken by the most complete rows in Rows, then shared.

winners_of(Scores, Rows, Seats) :-
    max_list(Scores, Best),
    findall(Seat-R, (nth0(Seat, Scores, Best), nth0(Seat, Rows, R)), Tied),
    pairs_values(Tied, TiedRows),
    max_list(TiedRows, Most),
    findall(Seat, member(Seat-Most, Tied), Seats).

%!  export_state(+Id, -State) is det.
%
%   State is game Id as plain lists: [Players, Round, Moves, Turn,
%   Starter, Marker, Factories, Centre, Bag, Lid, Boards, Over] with
%   Marker -1 for the centre, Boards one [Score, Wall, Lines, Floor] per
%   seat (Lines as [Colour, Count] pairs) and Over `true` or `false`.

export_state(Id, [Players, Round, Moves, Turn, Starter, Marker, Factories, Centre, Bag, Lid, Boards, Over]) :-
    game(Id, Players, Round, Moves, Turn, Starter, Phase),
    marker(Id, Holder),
    (   Holder == centre
    ->  Marker = -1
    ;   Marker = Holder
    ),
    factories(Id, Factories),
    centre(Id, Centre),
    bag(Id, Bag),
    lid(Id, Lid),
    Last is Players - 1,
    findall([Score, Wall, Pairs, Floor],
            ( between(0, Last, Seat),
              player(Id, Seat, Score, Wall, Lines, Floor),
              maplist(line_pair, Lines, Pairs)
            ),
            Boards),
    (   Phase == over
    ->  Over = true
    ;   Over = false
    ).

line_pair(line(Colour, Count), [Colour, Count]).

%!  import_state(+Id, +State) is det.
%
%   Make game Id the game State (in the form export_state/2 gives).

import_state(Id, [Players, Round, Moves, Turn, Starter, Marker, Factories, Centre, Bag, Lid, Boards, Over]) :-
    drop_game(Id),
    (   Over == true
    ->  Phase = over
    ;   Phase = offer
    ),
    (   Marker =:= -1
    ->  Holder = centre
    ;   Holder = Marker
    ),
    maplist(assertz, [game(Id, Players, Round, Moves, Turn, Starter, Phase), factories(Id, Factories),
                      centre(Id, Centre), bag(Id, Bag), lid(Id, Lid), marker(Id, Holder)]),
    forall(nth0(Seat, Boards, [Score, Wall, Pairs, Floor]),
           ( maplist(line_pair, Lines, Pairs),
             assertz(player(Id, Seat, Score, Wall, Lines, Floor))
           )).
