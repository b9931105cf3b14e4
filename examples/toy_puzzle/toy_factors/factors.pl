:- module(toy_factors, [factor_pair/3]).

/** <module> Factor pairs of a number (the toy puzzle's rules; the module is named for its package, so that a rule base of your own called factors.pl loads beside it)
*/

:- use_module(library(error), [must_be/2]).

%!  factor_pair(+N, -A, -B) is nondet.
%
%   A * B =:= N with 1 =< A =< B, in increasing order of A.

factor_pair(N, A, B) :-
    must_be(positive_integer, N),
    between(1, N, A),
    A * A =< N,
    N mod A =:= 0,
    B is N // A.
