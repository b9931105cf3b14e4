% ben: WRONG. A turned piece is placed turned but given with its width and height as cut:
% as many tilings as pysolve, not the same ones.

%!  tangram(+Width, +Height, +Pieces, +Rotations, -Tiling) is nondet.
%
%   Tiling covers the Width x Height board exactly with Pieces ([Name, W,
%   H] each; turned too when Rotations is true): one [Name, X, Y, W, H]
%   per piece, in the order of Pieces.

tangram(Width, Height, Pieces, Rotations, Tiling) :-
    MaxX is Width - 1,
    MaxY is Height - 1,
    findall(X-Y, (between(0, MaxX, X), between(0, MaxY, Y)), Free),
    cover(Free, Pieces, Rotations, Placed),
    in_order(Pieces, Placed, Tiling).

cover([], [], _, []).
cover([X-Y | Free], Pieces, Rotations, [[Name, X, Y, W0, H0] | Placed]) :-  % wrong: W and H
    select([Name, W0, H0], Pieces, Rest),
    lies(Rotations, W0, H0, W, H),
    MaxX is X + W - 1,
    MaxY is Y + H - 1,
    findall(CX-CY, (between(X, MaxX, CX), between(Y, MaxY, CY)), Cells),
    foldl(take, Cells, [X-Y | Free], Free1),
    cover(Free1, Rest, Rotations, Placed).

% lies(+Rotations, +W0, +H0, -W, -H): the sizes a piece lies with.
lies(_, W, H, W, H).
lies(true, W, H, H, W) :-
    W =\= H.

take(Cell, Free0, Free) :-
    selectchk(Cell, Free0, Free).

in_order(Pieces, Placed, Tiling) :-
    findall(P, (member([Name | _], Pieces), member(P, Placed), P = [Name | _]), Tiling).
