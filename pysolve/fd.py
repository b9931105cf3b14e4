"""Finite-domain constraints for pysolve's miniKanren: the cKanren design on the package's constraint store.

A relation states what holds; the constraint store narrows what can still
hold as variables are bound, and `labelfd` enumerates what is left:

>>> from pysolve import fd, minikanren as mk
>>> x, y, z = mk.var(), mk.var(), mk.var()
>>> goal = mk.conj(fd.infd([x, y, z], range(1, 4)),   # each of x, y, z is 1, 2 or 3
...                fd.distinctfd([x, y, z]),            # no two are equal
...                fd.ltfd(x, y),                       # x < y
...                fd.labelfd([x, y, z]))               # enumerate, smallest domain first
>>> mk.run(goal, (x, y, z))
[(1, 2, 3), (1, 3, 2), (2, 3, 1)]

The goals (each a miniKanren goal: state -> stream of states):

| goal | holds when |
|---|---|
| `domfd(x, values)`, `infd(xs, values)` | x (each of xs) is one of `values` (non-negative integers) |
| `eqfd(xs, values)` | each x equals its value (`eq`, one copy of the state and one settling for all) |
| `neqfd(x, y)` | x and y differ |
| `ltfd(x, y)`, `lefd(x, y)` | x < y, x <= y |
| `linearfd(coeffs, xs, total)` | sum(c * x) == total (`relation="<="`: at most total) |
| `sumfd(xs, total)`, `plusfd(x, y, z)` | sum(xs) == total, x + y == z |
| `distinctfd(xs)` | no two of xs are equal (all-different) |
| `distinctfd(xs, classes)` | no two of xs hold values of one class (`classes`: value -> class) |
| `tablefd(xs, rows)` | the tuple xs is one of `rows` (a table constraint) |
| `pathfd(xs, graph)` | xs is a walk in `graph` (a `Graph`) that never turns straight back |
| `labelfd(xs, strategy)` | every x of xs is bound, trying values in ascending order |
| `within(budget)` | always; the Budget bounds propagation and labelling from here on |

Arguments may be logic variables or integers, and the goals may come in any
order: a constraint posted before its variables have domains waits for them,
and one whose variables are bound is checked at once. The answer set does
not depend on the order (tests/test_fd.py checks both against brute force).

How it works. `FDStore` is a `kanren.constraints.ConstraintStore` kept in
the `ConstrainedState` that miniKanren threads through the goals. Each
constrained variable has a slot; per slot, a domain as a bit set (value v
is possible when bit v is set) and the propagators that watch it. Every
unification runs the store's `post_unify_check`: a variable bound to a value
narrows its domain to that value, and each propagator of a changed domain
runs again (the cheap ones to their own fixpoint before each global one),
until nothing changes or a domain is empty (the branch fails). A domain left
with one value binds its variable in the substitution, so answers reify as
usual. The domains (a list of integers) are copied with every state, so
backtracking undoes propagation for free. `labelfd` picks the unbound
variable with the fewest values (first-fail; ties: most constraints), or
the smallest share of the values it had when labelling began ("ffr"), and
tries each value: a copy of the state with the variable bound and its
domain narrowed to the value, propagated again (what `eq` does, without
unification's general machinery when the store is the state's only one).
Copies of a store share what only posting changes (the slots, their
variables and watchers) and the scratch of propagation, so a node costs a
copy of its domains.

The propagators:
- all-different removes a bound value from its peers, fails when fewer
  values remain than variables (pigeonhole), and when the values are
  exactly as many as the variables binds a value that only one variable can
  still take (a hidden single). With classes, the classes each domain meets
  are remembered and updated from the values it lost. Without, the
  variables bound when it is posted leave it, their values kept out of the
  others' domains.
- a table keeps, per position, only the values some still-possible row has
  (generalised arc consistency). Two columns: per-value support sets, a memo
  of the union for a domain, and a side revised only when the other side
  changed; three columns: each value's rows indexed by its neighbours in
  the row, and only the values a removal touched are checked again; more
  columns: compact table (the possible rows as a bit set, narrowed by what
  each domain lost, and a value kept while one of its rows is possible; a
  table none of whose domains changed since its last run is not run again).
- a walk's step (x, y, z: x and z two different neighbours of y in a graph)
  is generalised arc consistent in one pass over y's values, the
  neighbours of each a bit set; from AGAIN_FROM values of y up, a later run
  checks only the values next to what the domains lost since its last (a
  long Hidato snake); a walk of two, one neighbour pair.
- linear sums and orderings keep bounds consistency; the terms whose
  variable has one value when the sum is posted are folded into its total,
  and an equation left with two variables of opposite coefficients
  (`plusfd(x, 3, y)`: y = x + 3) keeps each domain the other's shifted, two
  bit shifts a run (domain consistency).
- a propagator that one run leaves at its own fixpoint (x != y, y = x + k,
  an alias) is not woken again by what it narrowed itself.

Limits: values are non-negative integers (the bit sets); domains are meant
for up to a few thousand values; propagation is as strong as listed above,
no stronger (no Hall sets beyond pigeonhole, no global cardinality).
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Literal

from cons.core import ConsPair
from kanren.constraints import ConstrainedState, ConstraintStore
from unification import Var, unify

from pysolve.budget import Budget
from pysolve.errors import PysolveError
from pysolve.minikanren import UNBOUND_TERM, is_var, walk
from pysolve.trace import Trace

Goal = Any  # a miniKanren goal: state -> iterator of states (see pysolve.minikanren.Goal)

__all__ = ["FDError", "FDStore", "Graph", "Table", "distinctfd", "domfd", "eqfd", "infd", "labelfd", "lefd",
           "linearfd", "ltfd", "neqfd", "pathfd", "plusfd", "sumfd", "tablefd", "values_of", "within"]

CHECK_ROWS = 1 << 14  # table rows built between looks at the budget's clock
AGAIN_FROM = 32  # a walk's step with this many cells left or more checks only what changed (Step.again)
MEMO_LIMIT = 1 << 16  # the most domains a two-column table remembers the supports of
UNBOUNDED = -1  # the domain of a variable no constraint has bounded yet: every non-negative integer


class FDError(PysolveError):
    """A finite-domain goal used wrongly: labelling a variable that has no domain, a negative value."""


# ---------------------------------------------------------------------------------------------------------
# Domains: non-negative integers as bit sets

def mask_of(values: Iterable[int]) -> int:
    """The bit set of `values` (a range becomes an interval at once)."""
    if isinstance(values, range) and values.step == 1 and values.start >= 0:
        return interval(values.start, values.stop - 1)
    mask = 0
    for value in values:
        if not is_value(value):
            raise FDError(f"finite domains hold non-negative integers, not {value!r}")
        mask |= 1 << value
    return mask


def interval(low: int, high: int) -> int:
    """The bit set of low..high (empty when high < low); low is raised to 0."""
    low = max(low, 0)
    if high < low:
        return 0
    return ((1 << (high + 1)) - 1) ^ ((1 << low) - 1)


def values_of(mask: int) -> Iterator[int]:
    """The values of a bit set, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def is_value(value: Any) -> bool:
    """True for what a finite domain may hold: a non-negative int (not a bool)."""
    return type(value) is int and value >= 0


def smallest(mask: int) -> int:
    """The smallest value of a non-empty bit set."""
    return (mask & -mask).bit_length() - 1


def largest(mask: int) -> int:
    """The largest value of a non-empty bit set."""
    return mask.bit_length() - 1


def is_single(mask: int) -> bool:
    """True when a non-empty bit set holds one value."""
    return not mask & (mask - 1)


# ---------------------------------------------------------------------------------------------------------
# Propagators: each narrows the domains of its slots (its variables' places in the store); False on a wipe-out

class Propagator:
    """A constraint over the store slots `slots` that narrows their domains through `store.narrow`."""

    __slots__ = ("slots",)
    cheap = True  # run before the global propagators (all-different, sums, n-ary tables) in a fixpoint
    idempotent = False  # True: one run leaves its own fixpoint, so what it narrows does not wake it again

    def __init__(self, slots: Sequence[int]) -> None:
        self.slots = tuple(slots)

    def propagate(self, store: FDStore) -> bool:
        """Narrow the domains; False when the constraint cannot hold."""
        raise NotImplementedError

    def simplified(self, store: FDStore) -> Propagator:
        """The propagator to post in its place, given the domains as they are (its own self unless cheaper)."""
        return self


class Same(Propagator):
    """x == y: the domains of two variables that unification made one."""

    __slots__ = ()
    idempotent = True

    def propagate(self, store: FDStore) -> bool:
        x, y = self.slots
        return store.narrow(x, store.domains[y]) and store.narrow(y, store.domains[x])


class Differ(Propagator):
    """x != y."""

    __slots__ = ()
    idempotent = True

    def propagate(self, store: FDStore) -> bool:
        x, y = self.slots
        dx = store.domains[x]
        if is_single(dx) and not store.narrow(y, ~dx):
            return False
        dy = store.domains[y]
        return not is_single(dy) or store.narrow(x, ~dy)


class LessEq(Propagator):
    """x + gap <= y (gap 1: x < y; gap 0: x <= y), bounds consistency."""

    __slots__ = ("gap",)

    def __init__(self, x: int, y: int, gap: int) -> None:
        super().__init__((x, y))
        self.gap = gap

    def propagate(self, store: FDStore) -> bool:
        x, y = self.slots
        if not store.narrow(y, ~interval(0, smallest(store.domains[x]) + self.gap - 1)):
            return False
        dy = store.domains[y]
        return dy < 0 or store.narrow(x, interval(0, largest(dy) - self.gap))


class Offset(Propagator):
    """y == x + k: each domain the other's shifted by k, as bit sets (domain consistency at two shifts a run).

    What a linear equation of two variables with opposite coefficients comes down to (`plusfd(x, 3, y)`,
    an N-queens diagonal tied to its column). A shift keeps an unbounded domain unbounded.
    """

    __slots__ = ("k",)
    idempotent = True

    def __init__(self, x: int, y: int, k: int) -> None:
        super().__init__((x, y))
        self.k = k

    def propagate(self, store: FDStore) -> bool:
        x, y = self.slots
        k, domains = self.k, store.domains
        dx, dy = domains[x], domains[y]
        shifted = dx << k if k >= 0 else dx >> -k
        if dy & shifted != dy:  # narrow only what changes: most runs change one side or none
            if not store.narrow(y, shifted):
                return False
            dy = domains[y]
        back = dy >> k if k >= 0 else dy << -k
        return dx & back == dx or store.narrow(x, back)


class Linear(Propagator):
    """sum(c * x) == total, or <= total (relation "<="), bounds consistency.

    An unbounded variable counts as 0..infinity, so an equation bounds it (y = x + 3 with x in 0..5 puts
    y in 3..8).
    """

    __slots__ = ("at_most", "coeffs", "total")
    cheap = False

    def __init__(self, coeffs: Sequence[int], slots: Sequence[int], total: int, at_most: bool) -> None:
        super().__init__(slots)
        self.coeffs, self.total, self.at_most = tuple(coeffs), total, at_most

    def simplified(self, store: FDStore) -> Propagator:
        """The sum with its single-valued terms folded into the total; an Offset when two opposite terms are left.

        A variable with one value when the sum is posted keeps it in every state below, so its term is a
        constant from here on.
        """
        domains, total, terms = store.domains, self.total, []
        for c, x in zip(self.coeffs, self.slots):
            if domains[x] > 0 and is_single(domains[x]):
                total -= c * largest(domains[x])
            elif c:
                terms.append((c, x))
        if not self.at_most and len(terms) == 2 and terms[0][0] == -terms[1][0]:
            (c, x), (_, y) = terms  # c * (x - y) == total
            if total % c == 0 and x != y:
                return Offset(x, y, -(total // c))
        if len(terms) == len(self.slots):
            return self
        return Linear([c for c, _ in terms], [x for _, x in terms], total, self.at_most)

    def propagate(self, store: FDStore) -> bool:
        terms = [term_bounds(c, store.domains[x]) for c, x in zip(self.coeffs, self.slots)]
        lows, highs = [low for low, _ in terms], [high for _, high in terms]
        open_lows, open_highs = lows.count(None), highs.count(None)
        low_sum = sum(low for low in lows if low is not None)
        high_sum = sum(high for high in highs if high is not None)
        if not open_lows and low_sum > self.total:
            return False
        if not self.at_most and not open_highs and high_sum < self.total:
            return False
        for x, c, low, high in zip(self.slots, self.coeffs, lows, highs):
            if not c:
                continue
            # this term is at most the total less the others' least, at least the total less the others' most
            term_high = None if open_lows - (low is None) else self.total - (low_sum - (low or 0))
            term_low = None if self.at_most or open_highs - (high is None) else self.total - (high_sum - (high or 0))
            if c < 0:
                term_low, term_high = term_high, term_low
            value_low = None if term_low is None else -(-term_low // c)
            value_high = None if term_high is None else term_high // c
            if not store.narrow(x, bounded(value_low, value_high)):
                return False
        return True


def term_bounds(c: int, domain: int) -> tuple[int | None, int | None]:
    """(least, most) of c * x for x's domain; None where unbounded (an unbounded x is 0..infinity)."""
    if domain < 0:
        return (0, None) if c > 0 else (None, 0)
    low, high = c * smallest(domain), c * largest(domain)
    return min(low, high), max(low, high)


def bounded(low: int | None, high: int | None) -> int:
    """The bit set of low..high, either end open (None).

    With no upper end, all but the values below low (a negative mask, which only a finite domain
    takes).
    """
    if high is None:
        return ~interval(0, low - 1) if low is not None else UNBOUNDED
    return interval(0 if low is None else low, high)


class Distinct(Propagator):
    """No two variables equal, or with `classes`, no two holding values of one class.

    A bound value (its whole class) leaves the peers; fewer values (classes) left than variables fails;
    when exactly as many, a value (class) only one variable can take is that variable's (a hidden single).
    `fixed`: the values of variables bound when it was posted, left out of its slots (see `simplified`).
    """

    __slots__ = ("classes", "fixed")
    cheap = False

    def __init__(self, slots: Sequence[int], classes: Classes | None = None, fixed: int = 0) -> None:
        super().__init__(slots)
        self.classes, self.fixed = classes, fixed

    def simplified(self, store: FDStore) -> Propagator:
        """Without classes, the variables with one value when it is posted taken out, their values kept in `fixed`.

        They keep that value in every state below, so a run need only keep their values out of the others'
        domains (a given's cell, on a Hidato board of many givens). A value met twice stays in the slots, to
        fail.
        """
        if self.classes is not None:
            return self
        domains, fixed, open_ = store.domains, self.fixed, []
        for x in self.slots:
            mask = domains[x]
            if mask > 0 and not mask & (mask - 1) and not fixed & mask:
                fixed |= mask
            else:
                open_.append(x)
        return self if len(open_) == len(self.slots) else Distinct(open_, fixed=fixed)

    def propagate(self, store: FDStore) -> bool:
        if self.classes is None:
            return self.propagate_values(store)
        domains, classes, slots = store.domains, self.classes, self.slots
        masks = [domains[x] for x in slots]
        taken = 0
        for mask in masks:
            if mask > 0 and not mask & (mask - 1):
                whole = classes.of_value(mask)
                if taken & whole:
                    return False
                taken |= whole
        if taken:
            for k, mask in enumerate(masks):
                if mask & taken and (mask < 0 or mask & (mask - 1)):
                    if not store.narrow(slots[k], ~taken):
                        return False
                    masks[k] = domains[slots[k]]
        return self.hidden_singles(store, masks, classes)

    def propagate_values(self, store: FDStore) -> bool:
        """`propagate` without classes, in as few passes over the domains as it takes (the hot path)."""
        domains, slots = store.domains, self.slots
        taken = self.fixed
        for x in slots:
            mask = domains[x]
            if mask > 0 and not mask & (mask - 1):
                if taken & mask:
                    return False
                taken |= mask
        once = twice = 0  # the values some domain holds, and those two or more hold
        unbounded = False
        for x in slots:
            mask = domains[x]
            if mask & taken and (mask < 0 or mask & (mask - 1)):
                if not store.narrow(x, ~taken):
                    return False
                mask = domains[x]
            if mask < 0:
                unbounded = True  # no count of values to go by
            twice |= once & mask
            once |= mask
        if unbounded:
            return True
        singles = hidden(once, twice, len(slots))
        if singles is None:
            return False
        for x in slots if singles else ():
            mask = domains[x]
            hit = mask & singles
            if hit and hit != mask and (hit & (hit - 1) or not store.narrow(x, hit)):
                return False
        return True

    def hidden_singles(self, store: FDStore, masks: list[int], classes: Classes) -> bool:
        """Fail when fewer classes remain than variables.

        When exactly as many, every one is someone's, so one that only one variable can take is that
        variable's. Only when every domain is finite.
        """
        if min(masks) < 0:
            return True
        last = store.seen.get(self)  # the classes each domain met, kept when it lost few values since
        if last is None:
            present = [classes.present(mask) for mask in masks]
        else:
            present = [bits if mask == old else classes.narrowed(bits, old, mask)
                       for mask, old, bits in zip(masks, *last)]
        store.seen[self] = (masks, present)
        once = twice = 0
        for bits in present:
            twice |= once & bits
            once |= bits
        singles = hidden(once, twice, len(masks))
        if singles is None:
            return False
        for x, bits in zip(self.slots, present) if singles else ():
            hit = bits & singles
            if hit and hit != bits and (not is_single(hit) or not store.narrow(x, classes.mask[hit])):
                return False
        return True


def hidden(once: int, twice: int, variables: int) -> int | None:
    """What all-different learns by counting: None when it fails, else the hidden singles (0: none).

    `once`: the values (classes) some variable can take; `twice`: those two or more can. Fewer left than
    `variables`: it fails; exactly as many: every one is someone's, so those only one can take are that
    one's; more: nothing.
    """
    count = once.bit_count()
    if count < variables:
        return None
    return once & ~twice if count == variables else 0


class Classes:
    """A partition of values into classes, for Distinct.

    Each class numbered (a bit of its own) with the bit set of its values; a value no class names
    is a class of its own.
    """

    def __init__(self, of: dict[int, Any]) -> None:
        labels: dict[Any, int] = {}
        self.by_value: dict[int, int] = {}  # a value's bit -> its class's bit
        self.mask: dict[int, int] = {}  # a class's bit -> the bit set of its values
        for value, label in of.items():
            if not is_value(value):
                raise FDError(f"finite domains hold non-negative integers, not {value!r}")
            bit = 1 << labels.setdefault(label, len(labels))
            self.by_value[1 << value] = bit
            self.mask[bit] = self.mask.get(bit, 0) | 1 << value
        self.memo: dict[int, int] = {}

    def of_value(self, single: int) -> int:
        """The bit set of the values in the class of a single value (given as its bit set)."""
        bit = self.class_bit(single)
        return self.mask[bit]

    def class_bit(self, single: int) -> int:
        """The bit of a value's class, numbering a value no class names on first sight."""
        bit = self.by_value.get(single)
        if bit is None:
            bit = self.by_value[single] = 1 << len(self.mask)
            self.mask[bit] = single
        return bit

    def narrowed(self, bits: int, old: int, new: int) -> int:
        """The bits of the classes `new` meets, given those (`bits`) of a domain `old` that holds it.

        The classes of the values removed that have none left.
        """
        removed = old & ~new
        if removed.bit_count() > new.bit_count():
            return self.present(new)
        while removed:
            bit = self.class_bit(removed & -removed)
            whole = self.mask[bit]
            if not new & whole:
                bits &= ~bit
            removed &= ~whole
        return bits

    def present(self, domain: int) -> int:
        """The bits of the classes a domain meets (memoised)."""
        bits = self.memo.get(domain)
        if bits is None:
            bits, rest, by_value = 0, domain, self.by_value
            while rest:
                low = rest & -rest
                bits |= by_value.get(low) or self.class_bit(low)
                rest ^= low
            if len(self.memo) < MEMO_LIMIT:
                self.memo[domain] = bits
        return bits


class Pairs(Propagator):
    """(x, y) is one of a table's pairs: each side keeps the values some value of the other supports.

    Incremental: the store remembers the domain each side was last revised from, and a side is revised
    again only when that domain changed.
    """

    __slots__ = ("table",)

    def __init__(self, x: int, y: int, table: Table) -> None:
        super().__init__((x, y))
        self.table = table

    def propagate(self, store: FDStore) -> bool:
        x, y = self.slots
        domains = store.domains
        last = store.seen.get(self)
        source_x = domains[x]
        if (last is None or source_x != last[0]) and not self.revise(store, x, y, 0):
            return False
        source_y = domains[y]
        if (last is None or source_y != last[1]) and not self.revise(store, y, x, 1):
            return False
        store.seen[self] = (source_x, source_y)
        return True

    def revise(self, store: FDStore, source: int, target: int, side: int) -> bool:
        """Keep in `target`'s domain only the values some value of `source` supports."""
        domain = store.domains[source] & self.table.columns[side]
        memo = self.table.memo[side]
        allowed = memo.get(domain)
        if allowed is None:
            support = self.table.support[side]
            allowed, rest = 0, domain
            while rest:
                low = rest & -rest
                allowed |= support[low]
                rest ^= low
            if len(memo) < MEMO_LIMIT:
                memo[domain] = allowed
        return store.narrow(target, allowed)


class Triples(Propagator):
    """(x, y, z) is one of a table's triples.

    A value stays while some row through it has its other two values possible (generalised arc
    consistency). Incremental: the store remembers the domains this propagator last left, and only the
    values whose rows meet a value removed since then are checked again.
    """

    __slots__ = ("table",)
    cheap = False

    def __init__(self, slots: Sequence[int], table: Table) -> None:
        super().__init__(slots)
        self.table = table

    def propagate(self, store: FDStore) -> bool:
        table = self.table
        domains = [store.domains[x] & column for x, column in zip(self.slots, table.columns)]
        last = store.seen.get(self)
        removed = domains[:] if last is None else [old & ~new for old, new in zip(last, domains)]
        rows, near = table.index, table.near
        while any(removed):
            dropped = [0, 0, 0]
            for i in range(3):
                second, third = (i + 1) % 3, (i + 2) % 3
                if last is None:  # the first run: every value is checked
                    suspects = domains[i]
                else:
                    suspects, (near_second, near_third) = 0, near[i]
                    for value in values_of(removed[second]):
                        suspects |= near_second[value]
                    for value in values_of(removed[third]):
                        suspects |= near_third[value]
                seconds, thirds, index = domains[second], domains[third], rows[i]
                for value in values_of(suspects & domains[i]):
                    for y, zs in index[value].items():
                        if seconds >> y & 1 and zs & thirds:
                            break  # a row through this value is still possible
                    else:
                        dropped[i] |= 1 << value
                domains[i] &= ~dropped[i]
                if not domains[i]:
                    return False
            removed, last = dropped, domains
        store.seen[self] = tuple(domains)
        return all(store.narrow(x, d) for x, d in zip(self.slots, domains))


class Compact(Propagator):
    """The slots' values are one of a table's rows, generalised arc consistency by compact table.

    The rows still possible are a bit set (row i possible when bit i is set), narrowed by the values each
    domain lost since the last run (or rebuilt from the values it kept, when fewer); a value stays while one
    of its rows is possible. The store remembers the domains and rows this propagator last left.

    Measured and left out (docs/squares.md): residual supports, each value's last supporting row tested
    first; on Owen's squares the test of a remembered row costs, in Python, what the look-up costs.
    """

    __slots__ = ("table",)
    cheap = False

    def __init__(self, slots: Sequence[int], table: Table) -> None:
        super().__init__(slots)
        self.table = table

    def propagate(self, store: FDStore) -> bool:
        table, slots, current = self.table, self.slots, store.domains
        domains = [current[x] & column for x, column in zip(slots, table.columns)]
        last = store.seen.get(self)
        before, possible = (table.columns, table.every) if last is None else last
        changed = [i for i, old in enumerate(before) if old != domains[i]]
        if last is not None and not changed:
            return True  # the domains this propagator left: still its fixpoint
        for i in changed:
            new = domains[i]
            removed = before[i] & ~new
            if removed.bit_count() < new.bit_count():
                possible &= ~rows_of(table.rows_with[i], removed)
            else:
                possible &= rows_of(table.rows_with[i], new)
        if not possible:
            return False
        for i, domain in enumerate(domains):
            if changed == [i] or not domain & (domain - 1):
                continue  # every value left has a possible row: only this position's values' rows were
                # dropped, or this one value is in every row the narrowing by the domains has kept
            rows_with, kept, rest = table.rows_with[i], 0, domain
            while rest:
                low = rest & -rest
                if rows_with[low.bit_length() - 1] & possible:
                    kept |= low
                rest ^= low
            domains[i] = kept
        store.seen[self] = (domains, possible)
        return all(current[x] == domain or store.narrow(x, domain) for x, domain in zip(slots, domains))


def timed(rows: Iterable[Any], budget: Budget | None) -> Iterator[Any]:
    """`rows`, with a look at the budget's clock every CHECK_ROWS of them (none without a budget)."""
    for number, row in enumerate(rows):
        if budget is not None and not number % CHECK_ROWS:
            budget.check()
        yield row


def rows_of(rows_with: list[int], values: int) -> int:
    """The bit set of the rows that hold one of `values` at a position (`rows_with`: value -> its rows)."""
    rows = 0
    while values:
        low = values & -values
        rows |= rows_with[low.bit_length() - 1]
        values ^= low
    return rows


class Table:
    """The allowed rows of a table constraint, with the indexes its propagator needs, built once.

    A relation that posts the same table many times passes one Table, and its posts share the indexes
    (and the memo of a two-column table).
    """

    def __init__(self, rows: Iterable[Sequence[int]], width: int, budget: Budget | None = None) -> None:
        """`budget`, when given, bounds the building (a relation's large tables are built before any search)."""
        self.rows = [tuple(row) for row in timed(rows, budget)]
        values = [value for row in self.rows for value in row]
        if set(map(len, self.rows)) - {width} or set(map(type, values)) - {int} or min(values, default=0) < 0:
            wrong = next(row for row in self.rows if len(row) != width or not all(map(is_value, row)))
            raise FDError(f"a table of {width} columns has the row {wrong!r}")
        self.width = width
        self.columns = tuple(mask_of({row[i] for row in self.rows}) for i in range(width))
        if width == 2:
            self.index_pairs(budget)
        elif width == 3:
            self.index_triples(budget)
        else:
            self.index_rows(budget)
        if budget is not None:
            budget.check()

    def index_pairs(self, budget: Budget | None = None) -> None:
        """Per side, a value's bit -> the bit set of the other side's values it pairs with.

        A memo per side of the union for a whole domain.
        """
        forward: dict[int, int] = {}
        backward: dict[int, int] = {}
        for a, b in timed(self.rows, budget):
            forward[1 << a] = forward.get(1 << a, 0) | 1 << b
            backward[1 << b] = backward.get(1 << b, 0) | 1 << a
        self.support = (forward, backward)
        self.memo: tuple[dict[int, int], dict[int, int]] = ({}, {})

    def index_triples(self, budget: Budget | None = None) -> None:
        """For each position i and value.

        `index`, {value at i+1: bit set of values at i+2} (positions taken cyclically); `near`, for a value
        at i+1 and for one at i+2, the values at i that share a row with it.
        """
        self.index: tuple[dict[int, dict[int, int]], ...] = ({}, {}, {})
        self.near: tuple[tuple[defaultdict[int, int], defaultdict[int, int]], ...] = tuple(
            (defaultdict(int), defaultdict(int)) for _ in range(3))
        for i in range(3):  # a pass per position, its dictionaries at hand
            j, k = (i + 1) % 3, (i + 2) % 3
            index, (near_second, near_third) = self.index[i], self.near[i]
            for row in timed(self.rows, budget):
                value, second, third = row[i], row[j], row[k]
                seconds = index.get(value)
                if seconds is None:
                    seconds = index[value] = {}
                seconds[second] = seconds.get(second, 0) | 1 << third
                bit = 1 << value
                near_second[second] |= bit
                near_third[third] |= bit

    def index_rows(self, budget: Budget | None = None) -> None:
        """Per position, a value -> the bit set of the rows that hold it there; `every`, all rows."""
        size = (len(self.rows) + 7) // 8
        self.rows_with: list[list[int]] = []
        for i, column in enumerate(self.columns):
            bitmaps = {value: bytearray(size) for value in values_of(column)}  # bit sets built bytewise, in O(rows)
            for number, row in enumerate(timed(self.rows, budget)):
                bitmaps[row[i]][number >> 3] |= 1 << (number & 7)
            rows_with = [0] * (largest(column) + 1 if column else 0)
            for value, bitmap in bitmaps.items():
                rows_with[value] = int.from_bytes(bitmap, "little")
            self.rows_with.append(rows_with)
        self.every = (1 << len(self.rows)) - 1

    def propagator(self, slots: list[int]) -> Propagator:
        """The propagator of this table over `slots`."""
        if self.width == 2:
            return Pairs(slots[0], slots[1], self)
        if self.width == 3:
            return Triples(slots, self)
        return Compact(slots, self)


class Graph:
    """An undirected graph on the vertices 0..n-1, each vertex's neighbours a bit set, for `pathfd`.

    Built once per graph and shared by every post of it: what a path's propagators read is `near`
    (vertex -> the bit set of its neighbours), `vertices` and `inner` (those with two neighbours or more,
    the only ones a step can pass through and go on).
    """

    def __init__(self, near: Sequence[Sequence[int]]) -> None:
        """`near[v]`: the neighbours of vertex v; FDError unless each edge is listed both ways and none is a loop."""
        self.near: list[int] = []
        for neighbours in near:
            mask = 0
            try:
                for other in neighbours:
                    mask |= 1 << other
            except (TypeError, ValueError):
                raise FDError(f"a graph's vertices are non-negative integers, not {neighbours!r}") from None
            self.near.append(mask)
        self.vertices = interval(0, len(self.near) - 1)
        masks = self.near
        for vertex, neighbours in enumerate(near):
            for other in neighbours:
                if other == vertex or other >= len(masks) or not masks[other] >> vertex & 1:
                    raise FDError(f"a graph of {len(masks)} vertices lists vertex {vertex} with the neighbours "
                                  f"{sorted(neighbours)}: an edge one way only, a loop or no such vertex")
        self.inner = sum(1 << vertex for vertex, mask in enumerate(self.near) if mask & (mask - 1))

    def around(self, vertices: int) -> int:
        """The bit set of the neighbours of the vertices in a bit set."""
        near, found = self.near, 0
        while vertices:
            low = vertices & -vertices
            vertices ^= low
            found |= near[low.bit_length() - 1]
        return found


class Adjacent(Propagator):
    """x and y are neighbours in a graph: each keeps the values some value of the other neighbours (one pass)."""

    __slots__ = ("graph",)
    idempotent = True

    def __init__(self, x: int, y: int, graph: Graph) -> None:
        super().__init__((x, y))
        self.graph = graph

    def propagate(self, store: FDStore) -> bool:
        x, y = self.slots
        near, domains = self.graph.near, store.domains
        others = domains[y] & self.graph.vertices
        kept = reached = 0
        rest = domains[x] & self.graph.vertices
        while rest:
            low = rest & -rest
            rest ^= low
            met = near[low.bit_length() - 1] & others
            if met:
                kept |= low
                reached |= met
        return store.narrow(x, kept) and store.narrow(y, reached)


class Step(Propagator):
    """before and after are two different neighbours of cell in a graph: a walk's step that does not turn back.

    Generalised arc consistency: a cell stays while its neighbours among before's values and among after's
    make two different values; a before (an after) stays while one of the cells left has a neighbour among
    the afters (befores) other than itself. The first run is one pass over cell's values; later ones start
    from the domains the last run left (the store remembers them) and check again only the cells next to
    a value the sides lost, and the sides' values next to a cell lost or to a cell whose other side lost
    one.
    """

    __slots__ = ("graph",)
    idempotent = True

    def __init__(self, slots: Sequence[int], graph: Graph) -> None:
        super().__init__(slots)
        self.graph = graph

    def propagate(self, store: FDStore) -> bool:
        b, c, a = self.slots
        graph, domains = self.graph, store.domains
        befores, cells, afters = domains[b] & graph.vertices, domains[c] & graph.inner, domains[a] & graph.vertices
        last = store.seen.get(self)
        kept, before_kept, after_kept = self.first(befores, cells, afters) \
            if last is None or cells.bit_count() < AGAIN_FROM else self.again(befores, cells, afters, *last)
        if not (store.narrow(c, kept) and store.narrow(b, before_kept) and store.narrow(a, after_kept)):
            return False
        store.seen[self] = (before_kept, kept, after_kept)
        return True

    def first(self, befores: int, cells: int, afters: int) -> tuple[int, int, int]:
        """(cells, befores, afters) kept, in one pass over the cells.

        Each kept cell supports its neighbours, less the other side's one value where that side has only one.
        """
        near = self.graph.near
        kept = before_kept = after_kept = 0
        while cells:
            low = cells & -cells
            cells ^= low
            around = near[low.bit_length() - 1]
            before, after = befores & around, afters & around
            if not before or not after:
                continue
            if before & (before - 1):  # two befores or more: every after has one different from it
                after_kept |= after
                before_kept |= before if after & (after - 1) else before & ~after
            elif before != after or after & (after - 1):
                before_kept |= before
                after_kept |= after & ~before
            else:
                continue  # one value on both sides: before and after cannot differ
            kept |= low
        return kept, before_kept, after_kept

    def again(self, befores: int, cells: int, afters: int, old_befores: int, old_cells: int,
              old_afters: int) -> tuple[int, int, int]:
        """`first`'s answer, from the domains the last run left (each value then supported).

        Only what a value lost since then may have left unsupported is checked.
        """
        graph = self.graph
        near, lost_before, lost_after = graph.near, old_befores & ~befores, old_afters & ~afters
        kept, rest = cells, cells & graph.around(lost_before | lost_after)
        while rest:
            low = rest & -rest
            rest ^= low
            around = near[low.bit_length() - 1]
            before, after = befores & around, afters & around
            if not before or not after or (before == after and not before & (before - 1)):
                kept ^= low
        dropped = old_cells & ~kept
        before_kept = befores & ~self.unsupported(befores & graph.around(dropped | kept & graph.around(lost_after)),
                                                  kept, afters)
        after_kept = afters & ~self.unsupported(afters & graph.around(dropped | kept & graph.around(lost_before)),
                                                kept, befores)
        return kept, before_kept, after_kept

    def unsupported(self, suspects: int, cells: int, others: int) -> int:
        """The values of `suspects` (one side's) that no cell of `cells` supports.

        A suspect is supported by a neighbour in `cells` that has a neighbour among `others` (the other
        side's values) other than the suspect itself.
        """
        near, lost = self.graph.near, 0
        while suspects:
            bit = suspects & -suspects
            suspects ^= bit
            rest = cells & near[bit.bit_length() - 1]
            while rest:
                low = rest & -rest
                rest ^= low
                if others & near[low.bit_length() - 1] & ~bit:
                    break
            else:
                lost |= bit
        return lost


# ---------------------------------------------------------------------------------------------------------
# The store

class FDStore(ConstraintStore):
    """The finite domains and their propagators inside a miniKanren state.

    Each constrained variable (and each constant a constraint names) has a
    slot: `lvar_constraints` maps a variable to its slot, `variables` a slot
    to its variable (None for a constant), `watchers` a slot to the
    propagators that read it. Those three are shared by the copies of a store
    and copied before a change (a post). `domains` (slot -> bit set; negative:
    unbounded, all values but the cleared bits) and `seen` (what an
    incremental propagator last left) are copied with every state.
    """

    __slots__ = ("budget", "domains", "private", "queued", "queues", "running", "seen", "singles", "variables",
                 "watchers")
    op_str = "in"

    def __init__(self, lvar_constraints: dict | None = None) -> None:
        super().__init__(lvar_constraints)
        self.variables: list[Var | None] = []
        self.watchers: list[tuple[Propagator, ...]] = []
        self.domains: list[int] = []
        self.seen: dict[Propagator, Any] = {}  # each incremental propagator's own record
        self.budget: Budget | None = None
        self.private = True  # the shared structures belong to this copy alone (may be changed in place)
        self.queues: tuple[deque[Propagator], deque[Propagator]] = (deque(), deque())  # global, cheap
        self.queued: set[Propagator] = set()
        self.singles: list[int] = []
        self.running: Propagator | None = None  # the idempotent propagator `settle` runs now, which narrowing
        # does not wake

    def copy(self) -> FDStore:
        """A store of the same constraints whose domains change apart from these (one per state).

        The copies share the scratch `settle` works in (queues, queued, singles), empty between two
        settlings: a copy begins every change of a store (a post, a binding, a label), and one left half
        done (a narrowing that failed before settling) is emptied here.
        """
        if self.queued or self.singles:
            self.drop()
        twin = FDStore.__new__(FDStore)  # no __init__: this runs once a node
        twin.lvar_constraints, twin.variables, twin.watchers = self.lvar_constraints, self.variables, self.watchers
        twin.private, self.private = False, False
        twin.domains, twin.seen, twin.budget = self.domains[:], self.seen.copy(), self.budget
        twin.queues, twin.queued, twin.singles, twin.running = self.queues, self.queued, self.singles, None
        return twin

    def drop(self) -> None:
        """Empty the scratch of a settling: the queues, what is queued, the slots left with one value."""
        for queue in self.queues:
            queue.clear()
        self.queued.clear()
        self.singles.clear()
        self.running = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FDStore) and self.domain_map() == other.domain_map()

    def domain_map(self) -> dict[Var, int]:
        """Variable -> its domain, for comparing and showing stores."""
        return {x: self.domains[slot] for x, slot in self.lvar_constraints.items()}

    def constraints_str(self, lvar: Var) -> str:
        slot = self.lvar_constraints.get(lvar)
        if slot is None or self.domains[slot] < 0:
            return ""
        return f"in {list(values_of(self.domains[slot]))}"

    def own(self) -> None:
        """Copy the shared structures before changing them."""
        if not self.private:
            self.lvar_constraints = dict(self.lvar_constraints)
            self.variables, self.watchers = self.variables[:], self.watchers[:]
            self.private = True

    def slot(self, term: Any) -> int:
        """The slot of a variable (a new, unbounded one if it has none) or of a constant (always new)."""
        if is_var(term):
            known = self.lvar_constraints.get(term)
            if known is not None:
                return known
        self.own()
        slot = len(self.domains)
        if is_var(term):
            self.lvar_constraints[term] = slot
            self.variables.append(term)
            self.domains.append(UNBOUNDED)
        elif is_value(term):
            self.variables.append(None)
            self.domains.append(1 << term)
        else:
            raise FDError(f"finite-domain constraints take non-negative integers, not {term!r}")
        self.watchers.append(())
        return slot

    def pre_unify_check(self, lvar_map: dict, lvar: Any = None, value: Any = None) -> bool:
        return True

    def post_unify_check(self, lvar_map: dict, lvar: Any = None, value: Any = None, old_state: Any = None) -> bool:
        """After a unification: narrow the domain of every constrained variable it bound, then propagate.

        Singletons are bound in `old_state`, the new state (ConstrainedState hands it over holding its own
        copy of `lvar_map`).
        """
        for x in self.touched((lvar, value), lvar_map):
            slot, target = self.lvar_constraints[x], walk(x, lvar_map)
            if is_var(target):
                if target is not x:
                    self.post([Same((slot, self.slot(target)))])
            elif not is_value(target) or not self.narrow(slot, 1 << target):
                return False
        return self.settle(lvar_map if old_state is None else old_state.data)

    def touched(self, terms: Any, substitution: dict) -> list[Var]:
        """The constrained variables in `terms`, followed through the substitution."""
        found, seen, stack = [], set(), [terms]
        while stack:
            term = stack.pop()
            if is_var(term):
                if term in seen:
                    continue
                seen.add(term)
                if term in self.lvar_constraints:
                    found.append(term)
                value = substitution.get(term, UNBOUND_TERM)
                if value is not UNBOUND_TERM:
                    stack.append(value)
            elif isinstance(term, (tuple, list)):
                stack.extend(term)
            elif isinstance(term, ConsPair):
                stack.extend((term.car, term.cdr))
        return found

    def narrow(self, slot: int, mask: int) -> bool:
        """Intersect a domain with `mask` (a negative mask, from `~`, removes values).

        Wake its watchers when it changed; False when it emptied. An unbounded domain changes only to a
        finite one: removals wait until it is finite, so that propagation always ends (domains only ever
        shrink, finitely often).
        """
        old = self.domains[slot]
        if old < 0 and mask < 0:
            return True
        new = old & mask
        if new == old:
            return True
        if not new:
            return False
        self.domains[slot] = new
        queued, running = self.queued, self.running
        for propagator in self.watchers[slot]:
            if propagator not in queued and propagator is not running:  # `wake`, inline: the hottest loop
                queued.add(propagator)
                self.queues[propagator.cheap].append(propagator)
        if new > 0 and not new & (new - 1):
            self.singles.append(slot)
        return True

    def post(self, propagators: Sequence[Propagator]) -> None:
        """Watch each propagator's slots and wake it (`settle` runs it)."""
        self.own()
        for propagator in propagators:
            for slot in set(propagator.slots):
                self.watchers[slot] += (propagator,)
            self.wake(propagator)

    def wake(self, propagator: Propagator) -> None:
        """Queue a propagator to run (once, however often it is woken before it runs)."""
        if propagator not in self.queued:
            self.queued.add(propagator)
            self.queues[propagator.cheap].append(propagator)

    def settle(self, substitution: dict) -> bool:
        """Propagate to a fixpoint and bind the variables left with one value.

        Run the woken propagators until none changes a domain (the cheap ones to their own fixpoint before
        each global one), then bind every variable left with one value in `substitution` (a dict of this
        state only). False when a domain emptied.
        """
        globals_, cheap = self.queues
        queued, budget = self.queued, self.budget
        try:
            while cheap or globals_:
                propagator = (cheap or globals_).popleft()
                queued.discard(propagator)
                if budget is not None:
                    budget.step()  # the clock looked at as often as a run's cost needs
                self.running = propagator if propagator.idempotent else None
                if not propagator.propagate(self):
                    return False
            self.running = None
            return self.bind_singles(substitution)
        finally:
            self.drop()

    def bind_singles(self, substitution: dict) -> bool:
        """Bind each variable whose domain came down to one value, through its chain of aliases."""
        for slot in self.singles:
            x = self.variables[slot]
            if x is None:
                continue
            value = largest(self.domains[slot])
            target = walk(x, substitution)
            if is_var(target):
                substitution[target] = value
            elif target != value:
                return False
        return True


# ---------------------------------------------------------------------------------------------------------
# Goals

def constrained(state: Any) -> tuple[ConstrainedState, FDStore]:
    """A copy of `state` that has an FDStore (the copy may be changed freely), and that store."""
    twin = state_copy(state.data, state.constraints) if isinstance(state, ConstrainedState) else \
        state_copy(dict(state), {})
    store = twin.constraints.get(FDStore)
    if store is None:
        store = twin.constraints[FDStore] = FDStore()
    return twin, store


def state_copy(substitution: dict, stores: dict) -> ConstrainedState:
    """A ConstrainedState of a copy of `substitution` and of each store, at the cost of two dict copies.

    `ConstrainedState.copy` without its UserDict constructor, which copies the substitution an item at a time.
    """
    twin = ConstrainedState.__new__(ConstrainedState)
    twin.data = substitution.copy()
    twin.constraints = {kind: store.copy() for kind, store in stores.items()}
    return twin


def posting(build: Callable[..., Propagator], *terms: Any) -> Goal:
    """The goal that posts a propagator over the terms' slots.

    The goal that posts the propagator `build(*slots)` makes over the terms (each a term or a list of them,
    walked: a variable's slot, or a new constant slot for a bound value).
    """
    return posting_all(lambda *slots: [build(*slots)], *terms)


def posting_all(build: Callable[..., list[Propagator] | None], *terms: Any) -> Goal:
    """The goal that posts the propagators `build(*slots)` makes over the terms' slots, settling once.

    `build` gives None for a constraint that cannot hold whatever the values (the goal has no answer).
    """

    def posting_goal(state: Any) -> Iterator[Any]:
        twin, store = constrained(state)
        try:
            slots = [slots_of(term, twin.data, store) for term in terms]
        except FDError:
            return  # a bound value that no finite domain holds (a string, a negative number): no answer
        propagators = build(*slots)
        if propagators is None:
            return
        store.post([propagator.simplified(store) for propagator in propagators])
        if store.settle(twin.data):
            yield twin

    return posting_goal


def slots_of(term: Any, substitution: dict, store: FDStore) -> Any:
    """The slot of a term (walked), or the list of slots of a list of terms."""
    if isinstance(term, list):
        return [slots_of(item, substitution, store) for item in term]
    return store.slot(walk(term, substitution))


def domfd(x: Any, values: Iterable[int]) -> Goal:
    """x is one of `values` (non-negative integers).

    >>> from pysolve import minikanren as mk
    >>> x = mk.var()
    >>> mk.run(mk.conj(domfd(x, [7, 3, 5]), labelfd([x])), x)
    [3, 5, 7]
    """
    return infd([x], values)


def infd(xs: Sequence[Any], values: Iterable[int]) -> Goal:
    """Each of xs is one of `values` (non-negative integers)."""
    mask = mask_of(values)

    def infd_goal(state: Any) -> Iterator[Any]:
        twin, store = constrained(state)
        for x in xs:
            target = walk(x, twin.data)
            if is_var(target):
                if not store.narrow(store.slot(target), mask):
                    return  # the copy and its half-done queue are dropped with this branch
            elif not (is_value(target) and mask >> target & 1):
                return
        if store.settle(twin.data):
            yield twin

    return infd_goal


def eqfd(xs: Sequence[Any], values: Sequence[int]) -> Goal:
    """Each x of xs equals its value in `values` (non-negative integers): `eq` of the two, the store's way.

    One copy of the state and one settling for them all, without unification's general machinery (where
    the state holds another constraint store, through unification, which asks it):

    >>> from pysolve import minikanren as mk
    >>> x, y = mk.var(), mk.var()
    >>> mk.run(mk.conj(infd([x, y], range(5)), ltfd(y, x), eqfd([x], [1])), (x, y))
    [(1, 0)]
    """
    xs, values = list(xs), list(values)
    if len(xs) != len(values):
        raise FDError(f"eqfd: {len(values)} values for {len(xs)} variables")
    mask_of(values)  # FDError for a value no finite domain holds

    def eqfd_goal(state: Any) -> Iterator[Any]:
        if isinstance(state, ConstrainedState) and set(state.constraints) - {FDStore}:
            unified = unify(tuple(xs), tuple(values), state)
            if unified is not False:
                yield unified
            return
        twin, store = constrained(state)
        for x, value in zip(xs, values):
            target = walk(x, twin.data)
            if is_var(target):
                if not store.narrow(store.slot(target), 1 << value):
                    return
            elif target != value:
                return
        if store.settle(twin.data):
            yield twin

    return eqfd_goal


def neqfd(x: Any, y: Any) -> Goal:
    """x != y.

    >>> from pysolve import minikanren as mk
    >>> x = mk.var()
    >>> mk.run(mk.conj(domfd(x, range(3)), neqfd(x, 1), labelfd([x])), x)
    [0, 2]
    """
    return posting(lambda a, b: Differ((a, b)), x, y)


def ltfd(x: Any, y: Any) -> Goal:
    """x < y."""
    return posting(lambda a, b: LessEq(a, b, 1), x, y)


def lefd(x: Any, y: Any) -> Goal:
    """x <= y."""
    return posting(lambda a, b: LessEq(a, b, 0), x, y)


def linearfd(coeffs: Sequence[int], xs: Sequence[Any], total: int, relation: str = "==") -> Goal:
    """sum(c * x for c, x in zip(coeffs, xs)) == total (relation "<=": at most total).

    Coefficients may be negative; propagation keeps each variable within the bounds the others allow (below,
    y is left 0..4 and, with the fewest values, is labelled first).

    >>> from pysolve import minikanren as mk
    >>> x, y = mk.var(), mk.var()
    >>> mk.run(mk.conj(infd([x, y], range(10)), linearfd([2, 3], [x, y], 12), labelfd([x, y])), (x, y))
    [(6, 0), (3, 2), (0, 4)]
    >>> len(mk.run(mk.conj(infd([x, y], range(10)), linearfd([2, 3], [x, y], 12, "<="), labelfd([x, y])), (x, y)))
    19
    """
    if relation not in ("==", "<="):
        raise FDError(f"linearfd takes the relation '==' or '<=', not {relation!r}")
    if len(coeffs) != len(xs):
        raise FDError(f"linearfd: {len(coeffs)} coefficients for {len(xs)} variables")
    return posting(lambda slots: Linear(coeffs, slots, total, relation == "<="), list(xs))


def sumfd(xs: Sequence[Any], total: int) -> Goal:
    """sum(xs) == total."""
    return linearfd([1] * len(xs), xs, total)


def plusfd(x: Any, y: Any, z: Any) -> Goal:
    """x + y == z.

    >>> from pysolve import minikanren as mk
    >>> x, y = mk.var(), mk.var()
    >>> mk.run(mk.conj(infd([x, y], range(5)), plusfd(x, y, 3), labelfd([x, y])), (x, y))
    [(0, 3), (1, 2), (2, 1), (3, 0)]
    """
    return linearfd([1, 1, -1], [x, y, z], 0)


def distinctfd(xs: Sequence[Any], classes: dict[int, Any] | None = None) -> Goal:
    """No two of xs are equal; with `classes` (value -> its class), no two hold values of the same class.

    Classes state, for instance, that two cells hold pieces of different shapes whatever their turns:

    >>> from pysolve import minikanren as mk
    >>> x, y = mk.var(), mk.var()
    >>> shapes = {0: "L", 1: "L", 2: "T"}
    >>> mk.run(mk.conj(infd([x, y], range(3)), distinctfd([x, y], shapes), labelfd([x, y])), (x, y))
    [(0, 2), (1, 2), (2, 0), (2, 1)]
    """
    if classes is None:
        return posting(Distinct, list(xs))
    partition = Classes(classes)
    return posting(lambda slots: Distinct(slots, partition), list(xs))


def tablefd(xs: Sequence[Any], rows: Table | Iterable[Sequence[int]]) -> Goal:
    """The tuple xs is one of `rows` (each a tuple of non-negative integers as long as xs).

    A relation that posts the same table many times passes one `Table`, built once.

    >>> from pysolve import minikanren as mk
    >>> x, y = mk.var(), mk.var()
    >>> knight = Table([(0, 5), (0, 7), (5, 0), (7, 0), (5, 6)], width=2)
    >>> mk.run(mk.conj(tablefd([x, y], knight), ltfd(x, y), labelfd([x, y])), (x, y))
    [(0, 5), (0, 7), (5, 6)]
    """
    table = rows if isinstance(rows, Table) else Table(rows, len(xs))
    if table.width != len(xs):
        raise FDError(f"a table of {table.width} columns given {len(xs)} variables")
    return posting(table.propagator, list(xs))


def pathfd(xs: Sequence[Any], graph: Graph) -> Goal:
    """xs is a walk in `graph` that never turns straight back.

    Each x is a vertex, each two consecutive ones are neighbours, and the two either side of an x differ
    (so a variable met again one or two places on makes the walk impossible: the graph has no loops). A
    Hidato's numbers walk the board's cells so.

    >>> from pysolve import minikanren as mk
    >>> square = Graph([[1, 3], [0, 2], [1, 3], [2, 0]])  # 0 - 1 - 2 - 3 - 0
    >>> xs = [mk.var() for _ in range(4)]
    >>> mk.run(mk.conj(pathfd(xs, square), mk.eq(xs[0], 0), labelfd(xs)), xs)
    [[0, 1, 2, 3], [0, 3, 2, 1]]
    """
    xs = list(xs)
    if len(xs) < 2:
        return infd(xs, range(len(graph.near)))

    def walk_propagators(slots: list[int]) -> list[Propagator] | None:
        if any(slots[k] in slots[k + 1:k + 3] for k in range(len(slots) - 1)):
            return None  # a variable met again one or two places on: a loop, or a step straight back
        if len(slots) == 2:
            return [Adjacent(slots[0], slots[1], graph)]
        return [Step(slots[k - 1:k + 2], graph) for k in range(1, len(slots) - 1)]

    return posting_all(walk_propagators, xs)


def within(budget: Budget) -> Goal:
    """Always true; from here on `budget` bounds propagation (its clock) and labelling (a node a value tried).

    >>> from pysolve import minikanren as mk
    >>> xs = [mk.var() for _ in range(8)]
    >>> goal = mk.conj(within(Budget(nodes=5)), infd(xs, range(8)), distinctfd(xs), labelfd(xs))
    >>> mk.run_bounded(goal, xs)
    ([], 'search passed its budget of 5 nodes')
    """

    def within_goal(state: Any) -> Iterator[Any]:
        twin, store = constrained(state)
        store.budget = budget
        yield twin

    return within_goal


# ---------------------------------------------------------------------------------------------------------
# Labelling

STRATEGIES = ("ff", "ffr", "leftmost")


def labelfd(xs: Sequence[Any], strategy: str = "ff", say: Say | None = None) -> Goal:
    """Every x of xs bound, values tried in ascending order.

    The variable chosen next is the one with the fewest values left ("ff", first-fail; ties: the most
    constraints, then the first), the one with the smallest share left of the values it had when
    labelling began ("ffr", first-fail relative; ties: the first), or the first unbound ("leftmost").
    Depth-first, with an explicit stack (no recursion limit on long lists).

    "ffr" is for variables whose domains start unequal for a reason that says nothing of how hard they are
    to place: first-fail would place all the small ones first. On Owen's 6x6 squares the frame's cells
    start with 24 placements and the inner ones with 64, the frame's own colours pair up in many ways, and
    first-fail, filling the frame first, tries 3.3 times the cells "ffr" tries (docs/squares.md).

    When the budget given by `within` carries a trace (pysolve.trace), each value tried is recorded as a
    node, `say(i, value)` giving its label and move (xs[i] bound to value; default `x<i+1>=value`), with
    the failures of propagation, the backtracking and the solutions.
    """
    if strategy not in STRATEGIES:
        raise FDError(f"labelfd strategies are {', '.join(STRATEGIES)}, not {strategy!r}")
    xs = list(xs)

    def labelfd_goal(state: Any) -> Iterator[Any]:
        labelled = unbound_slots(state, xs)
        store = state.constraints.get(FDStore) if isinstance(state, ConstrainedState) else None
        if store is not None and strategy == "ff":  # in the order ties go: the most constraints first, then as given
            labelled.sort(key=lambda item: -len(store.watchers[item[1]]))
        start = [store.domains[slot].bit_count() for _, slot in labelled] if store is not None else []
        if store is not None and store.budget is not None and store.budget.trace is not None:
            yield from traced_labelling(state, xs, labelled, start, strategy, store.budget.trace, say or said)
            return
        stack = [iter([state])]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
                continue
            chosen = choose(child.constraints[FDStore], labelled, start, strategy) if labelled else None
            if chosen is None:
                yield child
            else:
                stack.append(branches(child, *chosen))

    return labelfd_goal


Say = Callable[[int, int], tuple[str, dict[str, Any] | None]]  # (position in xs, value) -> (label, move)


def said(position: int, value: int) -> tuple[str, dict[str, Any] | None]:
    """The label of a binding in no puzzle's words: the variable by its position, from 1."""
    return f"x{position + 1}={value}", None


def traced_labelling(state: Any, xs: list[Any], labelled: list[tuple[Var, int]], start: list[int], strategy: str,
                     trace: Trace, say: Say) -> Iterator[Any]:
    """`labelfd`'s search, each value tried recorded in `trace`.

    A node entered, failed when propagation empties a domain, left when the search moves on; a
    solution at each answer.
    """
    store, position = state.constraints[FDStore], dict[int, int]()
    for index, x in enumerate(xs):  # each labelled variable's first place in xs
        target = walk(x, state.data)
        if is_var(target):
            position.setdefault(store.lvar_constraints[target], index)

    def traced_branches(parent: ConstrainedState, x: Var, slot: int, node: int) -> Iterator[tuple[Any, int]]:
        store = parent.constraints[FDStore]
        for value in values_of(store.domains[slot]):
            if store.budget is not None:
                store.budget.spend()
            label, move = say(position[slot], value)
            child_node = trace.enter(label, node, move)
            child = bound(parent, x, slot, value)
            if child is False:
                trace.fail(child_node)
            else:
                yield child, child_node
            trace.backtrack(child_node)

    stack: list[Iterator[tuple[Any, int]]] = [iter([(state, 0)])]
    while stack:
        child, node = next(stack[-1], (None, 0))
        if child is None:
            stack.pop()
            continue
        chosen = choose(child.constraints[FDStore], labelled, start, strategy) if labelled else None
        if chosen is None:
            trace.solution(node)
            yield child
        else:
            stack.append(traced_branches(child, *chosen, node))


def unbound_slots(state: Any, xs: list[Any]) -> list[tuple[Var, int]]:
    """(variable, slot) of each x still unbound in `state`; FDError for one that has no finite domain."""
    substitution = getattr(state, "data", state)
    store = state.constraints.get(FDStore) if isinstance(state, ConstrainedState) else None
    unbound = []
    for x in xs:
        target = walk(x, substitution)
        if not is_var(target):
            continue
        slot = store.lvar_constraints.get(target) if store is not None else None
        if store is None or slot is None or store.domains[slot] < 0:
            raise FDError(f"labelfd: the variable {target} has no finite domain")
        unbound.append((target, slot))
    return unbound


def choose(store: FDStore, labelled: list[tuple[Var, int]], start: list[int],
           strategy: str) -> tuple[Var, int] | None:
    """The (variable, slot) to label next, or None when all are bound (their domains are single values).

    `labelled` in the order ties are broken in (for "ff", as `labelfd` sorts them); `start`: each one's number
    of values when labelling began.
    """
    domains = store.domains
    if strategy == "ff":  # the first with the fewest values; none has fewer than two
        best, fewest = None, 0
        for x, slot in labelled:
            domain = domains[slot]
            if domain & (domain - 1):
                count = domain.bit_count()
                if best is None or count < fewest:
                    best, fewest = (x, slot), count
                    if count == 2:
                        break
        return best
    best, best_key = None, None
    for position, (x, slot) in enumerate(labelled):
        domain = domains[slot]
        if is_single(domain):
            continue
        if strategy == "leftmost":
            return x, slot
        key = (domain.bit_count() / start[position], position)  # "ffr"
        if best_key is None or key < best_key:
            best, best_key = (x, slot), key
    return best


def branches(state: ConstrainedState, x: Var, slot: int) -> Iterator[Any]:
    """The states with x bound to each value of its domain in turn (failed ones left out)."""
    store = state.constraints[FDStore]
    budget = store.budget
    for value in values_of(store.domains[slot]):
        if budget is not None:
            budget.spend()
        child = bound(state, x, slot, value)
        if child is not False:
            yield child


def bound(state: ConstrainedState, x: Var, slot: int, value: int) -> ConstrainedState | Literal[False]:
    """`state` with the unbound variable x (at `slot`) bound to `value` and propagated; False when that fails.

    What `unify(x, value, state)` gives, without its general machinery when the store is the state's only
    one: the substitution copied with x bound, the store copied with x's domain narrowed, then settled.
    """
    if len(state.constraints) != 1:
        return unify(x, value, state)  # other stores (disequality, ...) check the binding too
    child = state_copy(state.data, state.constraints)
    store = child.constraints[FDStore]
    child.data[x] = value
    store.narrow(slot, 1 << value)
    return child if store.settle(child.data) else False
