:- module(azul_facts,
          [ colour/2,              % ?Index, ?Name
            wall_colour/3,         % ?Row, ?Column, ?Colour
            factories_for/2,       % ?Players, ?Factories
            tiles_per_factory/1,   % ?Tiles
            floor_slots/1,         % ?Slots
            floor_penalty/2,       % ?Slot, ?Points
            floor_total/2,         % ?Items, ?Points
            full_bag/1,            % ?Counts
            colour_diagonal/2,     % ?Colour, ?Cells
            step/5,                % ?Direction, ?Row, ?Column, ?NextRow, ?NextColumn
            bonus/2,               % ?Kind, ?Points
            marker_item/1          % ?Item
          ]).

/** <module> Azul: the static facts of the game

The wall pattern, factories per player count, tiles per factory, floor
penalties, the full bag, the colour diagonals of the wall and the wall's
adjacency. Colours are 0..4 (blue, yellow, red, black, white); rows and
columns are 0..4. The rules over them are in azul.pl.
*/

%!  colour(?Index, ?Name) is nondet.
%
%   The five tile colours, in the order the wall pattern shifts them.
%
%   ```
%   ?- colour(2, Name).
%   Name = red.
%   ```
%
%   @error none: facts.

colour(0, blue).
colour(1, yellow).
colour(2, red).
colour(3, black).
colour(4, white).

%!  wall_colour(?Row, ?Column, ?Colour) is nondet.
%
%   The colour printed on wall cell (Row, Column): (Column - Row) mod 5.
%
%   ```
%   ?- wall_colour(1, 0, Colour).
%   Colour = 4.
%   ```
%
%   @error none: facts.

wall_colour(0, 0, 0). wall_colour(0, 1, 1). wall_colour(0, 2, 2). wall_colour(0, 3, 3). wall_colour(0, 4, 4).
wall_colour(1, 0, 4). wall_colour(1, 1, 0). wall_colour(1, 2, 1). wall_colour(1, 3, 2). wall_colour(1, 4, 3).
wall_colour(2, 0, 3). wall_colour(2, 1, 4). wall_colour(2, 2, 0). wall_colour(2, 3, 1). wall_colour(2, 4, 2).
wall_colour(3, 0, 2). wall_colour(3, 1, 3). wall_colour(3, 2, 4). wall_colour(3, 3, 0). wall_colour(3, 4, 1).
wall_colour(4, 0, 1). wall_colour(4, 1, 2). wall_colour(4, 2, 3). wall_colour(4, 3, 4). wall_colour(4, 4, 0).

%!  factories_for(?Players, ?Factories) is nondet.
%
%   Number of factories for 2, 3 and 4 players.
%
%   ```
%   ?- factories_for(3, Factories).
%   Factories = 7.
%   ```
%
%   @error none: facts.

factories_for(2, 5).
factories_for(3, 7).
factories_for(4, 9).

%!  tiles_per_factory(?Tiles) is det.
%
%   Tiles dealt onto each factory at the start of a round.
%
%   ```
%   ?- tiles_per_factory(Tiles).
%   Tiles = 4.
%   ```
%
%   @error none: a fact.

tiles_per_factory(4).

%!  floor_slots(?Slots) is det.
%
%   Slots on a floor line; further fallen tiles go to the lid unpenalised.
%
%   ```
%   ?- floor_slots(Slots).
%   Slots = 7.
%   ```
%
%   @error none: a fact.

floor_slots(7).

%!  floor_penalty(?Slot, ?Points) is nondet.
%
%   Points lost for an item on floor slot Slot (1..7).
%
%   ```
%   ?- floor_penalty(6, Points).
%   Points = 3.
%   ```
%
%   @error none: facts.

floor_penalty(1, 1).
floor_penalty(2, 1).
floor_penalty(3, 2).
floor_penalty(4, 2).
floor_penalty(5, 2).
floor_penalty(6, 3).
floor_penalty(7, 3).

%!  floor_total(?Items, ?Points) is nondet.
%
%   Points lost for a floor holding Items (0..7): the sum of its slots.
%
%   ```
%   ?- floor_total(3, Points).
%   Points = 4.
%   ```
%
%   @error none: facts.

floor_total(0, 0).
floor_total(1, 1).
floor_total(2, 2).
floor_total(3, 4).
floor_total(4, 6).
floor_total(5, 8).
floor_total(6, 11).
floor_total(7, 14).

%!  full_bag(?Counts) is det.
%
%   The bag at the start: 20 tiles of each colour, as counts by colour.
%
%   ```
%   ?- full_bag(Counts).
%   Counts = [20, 20, 20, 20, 20].
%   ```
%
%   @error none: a fact.

full_bag([20, 20, 20, 20, 20]).

%!  colour_diagonal(?Colour, ?Cells) is nondet.
%
%   The five wall cells Row-Column of one colour (a wrapped diagonal).
%
%   ```
%   ?- colour_diagonal(1, Cells).
%   Cells = [0-1, 1-2, 2-3, 3-4, 4-0].
%   ```
%
%   @error none: facts.

colour_diagonal(0, [0-0, 1-1, 2-2, 3-3, 4-4]).
colour_diagonal(1, [0-1, 1-2, 2-3, 3-4, 4-0]).
colour_diagonal(2, [0-2, 1-3, 2-4, 3-0, 4-1]).
colour_diagonal(3, [0-3, 1-4, 2-0, 3-1, 4-2]).
colour_diagonal(4, [0-4, 1-0, 2-1, 3-2, 4-3]).

%!  step(?Direction, ?Row, ?Column, ?NextRow, ?NextColumn) is nondet.
%
%   Wall adjacency: the cell next to (Row, Column) in Direction (left,
%   right, up, down), when there is one.
%
%   ```
%   ?- findall(D-R-C, step(D, 0, 0, R, C), Steps).
%   Steps = [right-0-1, down-1-0].
%   ```
%
%   @error none: facts.

step(left, 0, 1, 0, 0). step(left, 0, 2, 0, 1). step(left, 0, 3, 0, 2). step(left, 0, 4, 0, 3).
step(left, 1, 1, 1, 0). step(left, 1, 2, 1, 1). step(left, 1, 3, 1, 2). step(left, 1, 4, 1, 3).
step(left, 2, 1, 2, 0). step(left, 2, 2, 2, 1). step(left, 2, 3, 2, 2). step(left, 2, 4, 2, 3).
step(left, 3, 1, 3, 0). step(left, 3, 2, 3, 1). step(left, 3, 3, 3, 2). step(left, 3, 4, 3, 3).
step(left, 4, 1, 4, 0). step(left, 4, 2, 4, 1). step(left, 4, 3, 4, 2). step(left, 4, 4, 4, 3).
step(right, 0, 0, 0, 1). step(right, 0, 1, 0, 2). step(right, 0, 2, 0, 3). step(right, 0, 3, 0, 4).
step(right, 1, 0, 1, 1). step(right, 1, 1, 1, 2). step(right, 1, 2, 1, 3). step(right, 1, 3, 1, 4).
step(right, 2, 0, 2, 1). step(right, 2, 1, 2, 2). step(right, 2, 2, 2, 3). step(right, 2, 3, 2, 4).
step(right, 3, 0, 3, 1). step(right, 3, 1, 3, 2). step(right, 3, 2, 3, 3). step(right, 3, 3, 3, 4).
step(right, 4, 0, 4, 1). step(right, 4, 1, 4, 2). step(right, 4, 2, 4, 3). step(right, 4, 3, 4, 4).
step(up, 1, 0, 0, 0). step(up, 1, 1, 0, 1). step(up, 1, 2, 0, 2). step(up, 1, 3, 0, 3).
step(up, 1, 4, 0, 4). step(up, 2, 0, 1, 0). step(up, 2, 1, 1, 1). step(up, 2, 2, 1, 2).
step(up, 2, 3, 1, 3). step(up, 2, 4, 1, 4). step(up, 3, 0, 2, 0). step(up, 3, 1, 2, 1).
step(up, 3, 2, 2, 2). step(up, 3, 3, 2, 3). step(up, 3, 4, 2, 4). step(up, 4, 0, 3, 0).
step(up, 4, 1, 3, 1). step(up, 4, 2, 3, 2). step(up, 4, 3, 3, 3). step(up, 4, 4, 3, 4).
step(down, 0, 0, 1, 0). step(down, 0, 1, 1, 1). step(down, 0, 2, 1, 2). step(down, 0, 3, 1, 3).
step(down, 0, 4, 1, 4). step(down, 1, 0, 2, 0). step(down, 1, 1, 2, 1). step(down, 1, 2, 2, 2).
step(down, 1, 3, 2, 3). step(down, 1, 4, 2, 4). step(down, 2, 0, 3, 0). step(down, 2, 1, 3, 1).
step(down, 2, 2, 3, 2). step(down, 2, 3, 3, 3). step(down, 2, 4, 3, 4). step(down, 3, 0, 4, 0).
step(down, 3, 1, 4, 1). step(down, 3, 2, 4, 2). step(down, 3, 3, 4, 3). step(down, 3, 4, 4, 4).

%!  bonus(?Kind, ?Points) is nondet.
%
%   End-of-game bonus per complete row, column and colour.
%
%   ```
%   ?- bonus(column, Points).
%   Points = 7.
%   ```
%
%   @error none: facts.

bonus(row, 2).
bonus(column, 7).
bonus(colour, 10).

%!  marker_item(?Item) is det.
%
%   The first-player marker as an item on a floor line.
%
%   ```
%   ?- marker_item(Item).
%   Item = 5.
%   ```
%
%   @error none: a fact.

marker_item(5).
