% carla: WRONG. A token may jump over three others, one more than the rules allow, so
% on orders of four tokens or more its shortest paths take illegal moves.

%!  fichas(+M, +N, -Path) is nondet.
%
%   Path is a shortest path of board atoms from M whites, the hole and N
%   greens ('BBHVV') to N greens, the hole and M whites ('VVHBB'); a move
%   slides the token 1, 2 or 3 cells from the hole into it.

fichas(M, N, Path) :-
    line(M, 'B', N, 'V', Start),
    line(N, 'V', M, 'B', Goal),
    bfs([[Start]], [Start], Goal, Reversed),
    reverse(Reversed, Boards),
    maplist([Cells, Atom]>>atom_chars(Atom, Cells), Boards, Path).

line(Left, L, Right, R, Cells) :-
    length(Ls, Left), maplist(=(L), Ls),
    length(Rs, Right), maplist(=(R), Rs),
    append(Ls, ['H' | Rs], Cells).

% bfs(+Queue, +Seen, +Goal, -Path): Queue holds paths, the last board first.
bfs([[Goal | Rest] | _], _, Goal, [Goal | Rest]) :- !.
bfs([[Board | Rest] | Queue], Seen, Goal, Path) :-
    findall(Next, (move(Board, Next), \+ memberchk(Next, Seen)), New),
    findall([Next, Board | Rest], member(Next, New), Children),
    append(Seen, New, Seen1),
    append(Queue, Children, Queue1),
    bfs(Queue1, Seen1, Goal, Path).

% move(+Board, -Next): the token Offset cells from the hole slides into it.
move(Board, Next) :-
    nth0(Hole, Board, 'H'),
    member(Offset, [-4, -3, -2, -1, 1, 2, 3, 4]),  % the bug: a jump over three
    Other is Hole + Offset,
    nth0(Other, Board, Token),
    findall(Cell, ( nth0(I, Board, Old),
                    (   I =:= Hole -> Cell = Token
                    ;   I =:= Other -> Cell = 'H'
                    ;   Cell = Old
                    ) ),
            Next).
