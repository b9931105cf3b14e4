"""The packed round the search plays on (`offer.Offer`) against the `Table` rules and the heuristics, and the
search on it against the search on `State`s."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysolve.azul.heuristics import Weights, move_gain, values
from pysolve.azul.match import play_match
from pysolve.azul.model import GREY, RandomStream, feasible
from pysolve.azul.offer import Offer
from pysolve.azul.search_players import Mcts
from pysolve.azul.strategies import strategy
from pysolve.azul.tree import Game, State
from pysolve.errors import InputError


def positions(players: int, seed: int, variant: str = "standard") -> list[tuple[State, Offer | None]]:
    """Every decision of a seeded game of random-feasible moves, each with the Offer read from it (None where an
    Offer does not fit), the Offer then played along the game's moves to its round's end."""
    stream, choose = RandomStream(seed), random.Random(seed)
    state, seen = Game(players, variant=variant).new_initial_state(), []
    offer: Offer | None = None
    while not state.is_terminal:
        if state.is_chance_node:
            state.apply_chance(state.sample_chance(stream))
            continue
        fresh = Offer(state) if Offer.fits(state) else None
        if offer is not None and fresh is not None:
            assert offer.legal_moves() == fresh.legal_moves() and offer.worth() == fresh.worth()  # played = read
        offer = fresh
        seen.append((state.clone(), offer and offer.clone()))
        moves = state.legal_moves()
        move = choose.choice(feasible(moves) or moves)
        state.apply_move(move)
        if offer is not None:
            offer.apply_move(move)
            if state.is_chance_node or state.is_terminal:  # the round's end: the Offer says so and values it
                assert offer.is_chance_node and not offer.legal_moves()
                assert offer.worth() == pytest.approx(values(state.to_json()))
                offer = None
            else:
                assert offer.current_player == state.current_player
    return seen


@settings(max_examples=8, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**40))
def test_an_offer_lists_the_moves_and_gains_of_the_table_rules_and_values_the_rounds_end_as_the_heuristics(
        players, seed):
    seen = positions(players, seed)
    assert len(seen) > 20 and all(offer is not None for _, offer in seen)  # a standard wall: every decision fits
    for state, offer in seen:
        assert offer is not None
        moves = state.legal_moves()
        assert offer.legal_moves() == moves
        snapshot = state.to_json()
        assert offer.gains(moves) == [move_gain(snapshot, move) for move in moves]
        best = max(offer.gains(moves))
        assert offer.best_moves() == [move for move in moves if move_gain(snapshot, move) == best]


@pytest.mark.slow
def test_games_that_end_at_a_rounds_end_are_valued_at_their_final_scores():
    ends = [positions(2, seed)[-1] for seed in range(40)]  # the last decision of each game, played to its end
    assert all(offer is not None for _, offer in ends)
    for state, offer in ends:
        assert offer is not None
        for move in state.legal_moves():
            after, packed = state.child(move), offer.child(move)
            if after.is_terminal:
                assert packed.worth() == [float(score) for score in after.returns()]  # bonuses added


def test_a_grey_wall_and_its_tiling_stay_with_the_state():
    seen = positions(2, 7, GREY)
    assert seen and all(offer is None for _, offer in seen)


def test_the_search_on_offers_plays_what_the_search_on_states_plays():
    for seed in (1, 2, 3):
        stream, state = RandomStream(seed), Game(2).new_initial_state()
        while state.is_chance_node:
            state.apply_chance(state.sample_chance(stream))
        for _ in range(seed * 3):  # into the round, where the tree reaches the round's end
            state.apply_move(state.legal_moves()[seed % len(state.legal_moves())])
        packed = Mcts(iterations=300).search(state, random.Random(seed))
        plain = Mcts(iterations=300, packed=False).search(state, random.Random(seed))
        assert packed == plain


@pytest.mark.parametrize(("name", "expected"), [
    ("mcts:1000:random:w0:c0.7", Mcts(iterations=1000, playout="random", width=0, exploration=0.7)),
    ("mcts:c0:0.5s", Mcts(seconds=0.5, exploration=0.0)),
])
def test_the_exploration_constant_by_name(name, expected):
    assert strategy(name) == expected


@pytest.mark.parametrize("name", ["mcts:cnan", "mcts:c-1", "mcts:c101", "mcts:cinf"])
def test_an_exploration_constant_out_of_range_is_one_line_naming_the_strategy(name):
    with pytest.raises(InputError, match="exploration constant is 0 to 100") as caught:
        strategy(name)
    assert name in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.slow
def test_near_a_rounds_end_the_packed_search_plays_as_on_states_and_playouts_past_it_search_states():
    stream, state = RandomStream(4), Game(2).new_initial_state()
    while state.is_chance_node:
        state.apply_chance(state.sample_chance(stream))
    for _ in range(6):  # near the round's end: the tree reaches it, and its round ends keep their rewards
        state.apply_move(state.legal_moves()[0])
    assert Mcts(iterations=400).search(state, random.Random(5)) == Mcts(iterations=400, packed=False).search(
        state, random.Random(5))
    move, done = Mcts(iterations=400, rounds=2).search(state, random.Random(5))  # deals drawn: States only
    assert move in state.legal_moves() and done == 400


WEIGHED = Weights(progress=0.3, waiting=1.1, lacking=0.4, marker=2.0)  # every weight away from its default


@settings(max_examples=6, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**40))
def test_an_offer_values_the_rounds_end_as_the_heuristics_under_other_weights(players, seed):
    ends = 0
    for state, offer in positions(players, seed):
        assert offer is not None
        for move in state.legal_moves()[:6]:
            after = state.child(move)
            if after.is_chance_node or after.is_terminal:
                ends += 1
                assert offer.child(move).worth(WEIGHED) == pytest.approx(values(after.to_json(), WEIGHED))
    assert ends  # every game has round ends


def test_the_marker_is_worth_its_weight_to_the_seat_that_opens_the_next_round():
    state, offer = next((state, offer) for state, offer in positions(2, 3)
                        if state.child(state.legal_moves()[0]).is_chance_node)
    assert offer is not None
    after = offer.child(state.legal_moves()[0])
    opener = after.marker
    plain, marked = after.worth(), after.worth(Weights(marker=2.0))
    assert marked[opener] == plain[opener] + 2.0 and marked[1 - opener] == plain[1 - opener]


def test_a_weighed_search_on_offers_plays_what_it_plays_on_states():
    stream, state = RandomStream(2), Game(2).new_initial_state()
    while state.is_chance_node:
        state.apply_chance(state.sample_chance(stream))
    for _ in range(5):  # into the round, where the tree reaches the round's end
        state.apply_move(state.legal_moves()[1])
    assert not state.is_chance_node
    packed = Mcts(iterations=300, weights=WEIGHED).search(state, random.Random(2))
    assert packed == Mcts(iterations=300, weights=WEIGHED, packed=False).search(state, random.Random(2))


@pytest.mark.parametrize(("name", "expected"), [
    ("mcts:1s:p0.3:t1.1:l0.4:m2", Mcts(seconds=1.0, weights=WEIGHED)),
    ("mcts:200:m1.5", Mcts(iterations=200, weights=Weights(marker=1.5))),
])
def test_the_evaluations_weights_by_name(name, expected):
    assert strategy(name) == expected


@pytest.mark.parametrize(("name", "words"), [
    ("mcts:mnan", "marker weight is 0 to 100"), ("mcts:p-1", "progress weight is 0 to 100"),
    ("mcts:t101", "waiting weight is 0 to 100"), ("mcts:minf", "marker weight is 0 to 100"),
    ("mcts:l200", "lacking weight is 0 to 100"), ("mcts:mx", "is not ITERATIONS"),
])
def test_an_evaluation_weight_out_of_range_is_one_line_naming_the_strategy(name, words):
    with pytest.raises(InputError, match=words) as caught:
        strategy(name)
    assert name in str(caught.value) and "\n" not in str(caught.value)


def test_a_weighed_search_player_plays_legal_moves_and_a_seeded_game_repeats():
    players = ["mcts:60:p0.3:t1.1:l0.4:m2", "greedy"]
    first, again = play_match(2, 11, "python", players), play_match(2, 11, "python", players)
    assert first.scores == again.scores and first.moves == again.moves and first.state["over"]
    assert play_match(2, 11, "python", players[::-1]).scores != first.scores  # the seats matter: something was played
