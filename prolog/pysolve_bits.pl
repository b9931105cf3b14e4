:- module(pysolve_bits,
          [ bit_member/2                % -Bit, +Set
          ]).

/** <module> Sets of small integers as the bits of one integer

The propagating searches (Hidato's cells, Sudoku's values) keep their sets
as unbounded integers and branch on their members.
*/

:- set_prolog_flag(optimise, true).   % compile the arithmetic inline (file-local)

%!  bit_member(-Bit, +Set) is nondet.
%
%   Bit is each member of Set as a power of two (Set /\ Bit =:= Bit), on
%   backtracking, lowest first; fails for the empty set 0.
%
%   ```
%   ?- findall(Bit, bit_member(Bit, 0b1010), Bits).
%   Bits = [2, 8].
%   ```
%
%   @error none: a Set that is no integer raises the type error of is/2.

bit_member(Bit, Set) :-
    Set =\= 0,
    Low is Set /\ -Set,
    (   Bit = Low
    ;   Rest is Set xor Low,
        bit_member(Bit, Rest)
    ).
