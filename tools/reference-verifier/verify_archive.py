#!/usr/bin/env python3
"""Independent reference verifier for `yaniv-archive/1` championship archives.

Written from docs/verification.md (`verification-spec/1`) alone, standard library
only.  Usage:

    python3 verify_archive.py ARCHIVE.json      (or `-` for stdin)

Prints a JSON verdict on stdout; exit status 0 = everything checks out,
1 = something does not (or cannot be verified), 2 = unreadable input.

Section numbers in comments (`§n.m`) refer to docs/verification.md.
"""

import argparse
import hashlib
import json
import struct
import sys
from collections import Counter

ARCHIVE_FORMAT = "yaniv-archive/1"
DEAL_ALGORITHM = "chacha20-fisher-yates/1"
DRAW_ALGORITHM = "tournament-draw/1"
ENTROPY_PROCEDURE = "yaniv-player-entropy/1"
# §12: the procedure a stage-1 seeding must name under each config `seeding` that asks
# for one ("random", the default, asks for none).
SEEDING_PROCEDURES = {"rating": "yaniv-ratings/1", "season": "yaniv-season/1"}
STARTER_STREAM = 0xFFFFFFFF
CHECKPOINT_FORMAT = "yaniv/checkpoint/v1"
ZERO32 = bytes(32)
MASK32 = 0xFFFFFFFF
REDEAL_STREAM = 0x80000000   # §3: re-deal n of a round shuffles with stream REDEAL_STREAM + n
QUEEN_STREAM = 0x40000000    # §3: swap n of a round orders the target's cards with QUEEN_STREAM + n
MAX_HAND = 16   # §6: without hands_uncapped a hand holds at most 16 cards; a forced draw onto a full hand lapses


class Unreadable(Exception):
    """The input is not a readable yaniv-archive/1 document (exit 2)."""


# ---------------------------------------------------------------------------
# §2 seeds and commitments
# ---------------------------------------------------------------------------

def sha256(data):
    return hashlib.sha256(data).digest()


def decode_hex32(text):
    """32 bytes from 64 hex digits (upper case accepted on input, §1.4); None if bad."""
    if not isinstance(text, str) or len(text) != 64:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        return None


def commitment_of(seed_hex):
    seed = decode_hex32(seed_hex)
    return None if seed is None else sha256(seed).hex()


# ---------------------------------------------------------------------------
# §3 ChaCha20 keystream (RFC 8439 §2.3), uniform draw, Fisher-Yates
# ---------------------------------------------------------------------------

def _rotl(v, c):
    return ((v << c) & MASK32) | (v >> (32 - c))


def _quarter(x, a, b, c, d):
    x[a] = (x[a] + x[b]) & MASK32; x[d] = _rotl(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & MASK32; x[b] = _rotl(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & MASK32; x[d] = _rotl(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & MASK32; x[b] = _rotl(x[b] ^ x[c], 7)


def chacha20_block(key, counter, nonce):
    """The 16 output words of the ChaCha20 block function (RFC 8439 §2.3)."""
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    state += list(struct.unpack("<8I", key))
    state.append(counter & MASK32)
    state += list(struct.unpack("<3I", nonce))
    x = list(state)
    for _ in range(10):
        _quarter(x, 0, 4, 8, 12); _quarter(x, 1, 5, 9, 13)
        _quarter(x, 2, 6, 10, 14); _quarter(x, 3, 7, 11, 15)
        _quarter(x, 0, 5, 10, 15); _quarter(x, 1, 6, 11, 12)
        _quarter(x, 2, 7, 8, 13); _quarter(x, 3, 4, 9, 14)
    return [(x[i] + state[i]) & MASK32 for i in range(16)]


class Keystream:
    """w0, w1, ... for (seed, stream id); block counter starts at 0 (§3.1)."""

    def __init__(self, seed, stream_id):
        self.key = seed
        self.nonce = struct.pack("<I", stream_id & MASK32) + bytes(8)
        self.counter = 0
        self.buf = []
        self.used = 0

    def next_word(self):
        if not self.buf:
            self.buf = chacha20_block(self.key, self.counter, self.nonce)
            self.counter += 1
        self.used += 1
        return self.buf.pop(0)

    def uniform(self, n):
        """§3.2: uniform integer in [0, n) by rejection; always consumes >= 1 word."""
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            x = self.next_word()
            if x < limit:
                return x % n


def shuffle(items, seed, stream_id):
    """§3.3 Fisher-Yates from the end; returns a new list."""
    out = list(items)
    ks = Keystream(seed, stream_id)
    for i in range(len(out) - 1, 0, -1):
        j = ks.uniform(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# ---------------------------------------------------------------------------
# §4 cards and the deck
# ---------------------------------------------------------------------------

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["C", "D", "H", "S"]


def parse_card(card):
    """(rank 1..13 or 0 for a joker, suit index or None); raises ValueError."""
    if card == "JK":
        return (0, None)
    if not isinstance(card, str) or len(card) < 2:
        raise ValueError("not a card: %r" % (card,))
    rank, suit = card[:-1], card[-1]
    if rank not in RANKS or suit not in SUITS:
        raise ValueError("not a card: %r" % (card,))
    return (RANKS.index(rank) + 1, SUITS.index(suit))


def unsuited_straight(cards, ace_high):
    """§6 Waterfall: natural cards of consecutive ranks, none repeated, any suits; an ace
    is 1, or 14 where the rules' runs let it be high."""
    ranks = [parse_card(c)[0] for c in cards]
    if 0 in ranks:
        return False
    for ace in ((1, 14) if ace_high else (1,)):
        values = sorted(ace if v == 1 else v for v in ranks)
        if all(b == a + 1 for a, b in zip(values, values[1:])):
            return True
    return False


def card_code(card):
    """§4.1 sort code: jokers 0, then 16 * suit_index + rank."""
    rank, suit = parse_card(card)
    return 0 if rank == 0 else 16 * suit + rank


def deck_count(rules, nplayers):
    decks = rules.get("decks")
    if decks == "one":
        return 1
    if decks == "two":
        return 2
    if isinstance(decks, dict) and "two_from_players" in decks:
        return 2 if nplayers >= decks["two_from_players"] else 1
    raise ValueError("unknown decks parameter %r" % (decks,))


def canonical_deck(rules, nplayers):
    """§4.2/4.3: per deck AC..KC AD..KD AH..KH AS..KS then its jokers."""
    one = [r + s for s in SUITS for r in RANKS] + ["JK"] * rules.get("jokers_per_deck", 0)
    return one * deck_count(rules, nplayers)


def card_value(card, rules):
    """§10.2 plain card value."""
    rank, suit = parse_card(card)
    cv = rules["card_values"]
    if rank == 0:
        return cv["joker"]
    if rank == 11:
        return cv["jack"]
    if rank == 12:
        return cv["queen"]
    if rank == 13:
        return cv["king_of_hearts"] if suit == 2 else cv["king"]
    return rank


def swap_remove(hand, card):
    """§6 'swap remove'; returns False when the card is not in the hand."""
    for i, c in enumerate(hand):
        if c == card:
            hand[i] = hand[-1]
            hand.pop()
            return True
    return False


# ---------------------------------------------------------------------------
# §19 event hash chain, §20 checkpoints
# ---------------------------------------------------------------------------

def _str(s):
    b = s.encode("utf-8")
    return struct.pack(">Q", len(b)) + b


def _opt(s):
    return b"\x00" if s is None else b"\x01" + _str(s)


def event_hash(stream_id, version, event_type, payload, actor, request_id,
               idempotency_key, recorded_at_micros, prev_hash):
    data = (b"yaniv/event/v1\x00" + _str(stream_id) + struct.pack(">Q", version)
            + _str(event_type) + _str(payload) + _str(actor) + _opt(request_id)
            + _opt(idempotency_key) + struct.pack(">q", recorded_at_micros) + prev_hash)
    return sha256(data)


def checkpoint_leaf(stream_id, version, head_hash):
    sid = stream_id.encode("utf-8")
    return sha256(b"yaniv/checkpoint/leaf/v1\x00" + struct.pack(">Q", len(sid)) + sid
                  + struct.pack(">Q", version) + head_hash)


def checkpoint_node(left, right):
    return sha256(b"yaniv/checkpoint/node/v1\x00" + left + right)


def checkpoint_root(heads):
    """§20.2 root of a full list of (stream_id, version, head_hash bytes)."""
    if not heads:
        return sha256(b"yaniv/checkpoint/empty/v1\x00")
    level = [checkpoint_leaf(*h) for h in heads]
    while len(level) > 1:
        nxt = [checkpoint_node(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


def path_shape(index, count):
    """The side of each step of a leaf's path in a tree of `count` leaves (§20.4)."""
    shape = []
    n = count
    while n > 1:
        sib = index ^ 1
        if sib < n:
            shape.append("left" if sib < index else "right")
        index //= 2
        n = (n + 1) // 2
    return shape


# ---------------------------------------------------------------------------
# §10 scoring of one round (pure function: used for online games and paper sheets)
# ---------------------------------------------------------------------------

def lowest(seats, h):
    """'The lowest of a list': first seat with the smallest h (§10.3)."""
    best = None
    for s in seats:
        if best is None or h[s] < h[best]:
            best = s
    return best


def score_round(rules, nseats, in_round, totals_before, ending, h, dealer,
                successful_calls):
    """§10.3-10.8.  ending = (kind, seat, extra):
       ("empty_hand", s, None) ("false_call", c, None) ("immediate", c, None)
       ("go_along", c, going_set) ("kluft", c, challengers_set).
    h: shown totals per seat (None for seats not in the round).
    dealer: the round's dealer seat (already resolved), or None if unknown.
    successful_calls: per seat, earlier rounds of this game with outcome yaniv/kluft
    and that seat as caller.  Returns the expected round_ended fields plus
    'game_over'.  Raises ValueError for endings the rules do not allow."""
    kind, ref, extra = ending
    order = [(ref + 1 + i) % nseats for i in range(nseats) if in_round[(ref + 1 + i) % nseats]]
    # order ends with the reference itself (i = nseats - 1)
    points = [None] * nseats
    for s in order:
        points[s] = h[s]
    c = ref
    tie_ok = not rules.get("caller_wins_ties", False)

    def beats(s):
        return h[s] <= h[c] if tie_ok else h[s] < h[c]

    caller = None if kind == "empty_hand" else c
    if kind == "immediate":
        res = rules["call_resolution"]["immediate"]
        penalty, others = res["penalty"], res["others"]
        beaten_by = [s for s in order if s != c and beats(s)]
        if not beaten_by:
            points[c] = 0
            outcome, winner = "yaniv", c
        else:
            outcome = "assaf"
            winner = lowest(beaten_by, h)
            m = len(beaten_by)
            if "hand_plus" in penalty:
                add = penalty["hand_plus"]["points"]
            elif "hand_plus_per_assaf" in penalty:
                p = penalty["hand_plus_per_assaf"]
                add = p["single"] if m == 1 else p["each"] * m
            elif "hand_plus_first_and_further" in penalty:
                p = penalty["hand_plus_first_and_further"]
                add = p["first"] + p["further"] * (m - 1)
            else:
                raise ValueError("unknown immediate penalty %r" % (penalty,))
            points[c] = h[c] + add
            if others == "hands":
                pass
            elif others == "zero":
                for s in order:
                    if s != c:
                        points[s] = 0
            elif others == "at_or_below_caller_zero":
                for s in beaten_by:
                    points[s] = 0
            elif others == "lowest_zero":
                for s in beaten_by:
                    if h[s] == h[winner]:
                        points[s] = 0
            else:
                raise ValueError("unknown 'others' %r" % (others,))
    elif kind == "false_call":
        otc = rules.get("over_threshold_call")
        outcome = "false_call"
        winner = lowest([s for s in order if s != c], h)
        if isinstance(otc, dict) and "hand_plus" in otc:
            points[c] = h[c] + otc["hand_plus"]["points"]
        elif isinstance(otc, dict) and "plus_left_neighbour_hand" in otc:
            points[c] = otc["plus_left_neighbour_hand"]["points"] + h[order[0]]
        else:
            raise ValueError("a call above the threshold under over_threshold_call %r" % (otc,))
    elif kind == "go_along":
        p = rules["call_resolution"]["go_along"]["penalty"]
        beaten_by = []
        for s in order:
            if s != c and s in extra:
                if beats(s):
                    points[s] = 0
                    beaten_by.append(s)
                else:
                    points[s] = p
        points[c] = p * len(beaten_by)
        outcome = "yaniv" if points[c] == 0 else "assaf"
        winner = lowest(beaten_by, h) if beaten_by else c
    elif kind == "kluft":
        p = rules["call_resolution"]["kluft"]["penalty"]
        callers = [c] + [s for s in order if s != c and s in extra]
        winner = lowest(callers, h)
        for s in callers:
            points[s] = 0 if s == winner else h[s] + p
        outcome = "kluft" if winner == c else "onderkluft"
    elif kind == "empty_hand":
        points[ref] = 0
        outcome, winner = "empty_hand", ref
    else:
        raise ValueError("unknown ending %r" % (kind,))

    # §10.5 totals, reductions, bonus
    totals = list(totals_before)
    for s in order:
        totals[s] = totals_before[s] + points[s]
    reductions = []
    red = rules.get("reductions", "none")
    for s in order:
        if points[s] <= 0:
            continue
        t = totals[s]
        new = None
        if red == "none" or red is None:
            pass
        elif isinstance(red, dict) and "exact" in red:
            for frm, to in red["exact"]:
                if frm == t:
                    new = to
                    break
        elif isinstance(red, dict) and "multiples_of" in red:
            k, m = red["multiples_of"]["step"], red["multiples_of"]["minus"]
            if t > 0 and t % k == 0:
                new = t - m
        else:
            raise ValueError("unknown reductions %r" % (red,))
        if new is not None:
            reductions.append({"seat": s, "from": t, "to": new})
            totals[s] = new
    bonuses = []
    scb = rules.get("successful_call_bonus")
    if scb and caller is not None and outcome in ("yaniv", "kluft") and len(order) > 2:
        k = successful_calls[c] + 1
        if k % scb["calls"] == 0:
            minus = min(scb["minus"], totals[c])
            totals[c] -= minus
            bonuses.append({"seat": c, "minus": minus})

    # §10.6 eliminations and end of game
    ge = rules["game_end"]
    if "elimination" in ge:
        lim, at = ge["elimination"]["limit"], ge["elimination"]["at_limit"]
    else:
        lim, at = ge["lowest_wins"]["limit"], ge["lowest_wins"]["at_limit"]

    def over(s):
        return totals[s] > lim or (at and totals[s] == lim)

    eliminated = []
    if "elimination" in ge:
        eliminated = [s for s in order if over(s)]
        if len(eliminated) == len(order):
            low = min(totals[s] for s in order)
            eliminated = [s for s in eliminated if totals[s] != low]
        game_over = len(order) - len(eliminated) <= 1
    else:
        game_over = any(over(s) for s in order)

    # §10.8 next dealer and starter
    next_dealer = next_starter = None
    if not game_over:
        survivors = [s for s in order if s not in eliminated]

        def after(x):
            for i in range(1, nseats + 1):
                y = (x + i) % nseats
                if y in survivors:
                    return y
            return x
        ns = rules.get("next_starter")
        if ns == "lowest_hand":
            next_starter = lowest(survivors, h)
        elif ns == "left_of_dealer":
            if dealer is None:
                raise ValueError("no dealer known")
            next_dealer = after(dealer)
            next_starter = after(next_dealer)
        elif ns == "left_of_round_winner":
            next_dealer = winner if winner in survivors else after(winner)
            next_starter = after(next_dealer)
        else:
            raise ValueError("unknown next_starter %r" % (ns,))
    return {
        "outcome": outcome, "caller": caller, "winner": winner,
        "hand_totals": [h[s] if in_round[s] else None for s in range(nseats)],
        "points": points, "totals": totals, "reductions": reductions,
        "bonuses": bonuses, "eliminated": eliminated,
        "next_dealer": next_dealer, "next_starter": next_starter,
        "game_over": game_over,
    }


def game_standings(rules, totals, eliminated_round):
    """§11: [{"seat","total","place"}] sorted by (key, seat)."""
    elim = "elimination" in rules["game_end"]
    keys = []
    for s, t in enumerate(totals):
        r = eliminated_round.get(s)
        keys.append((1, (1 << 32) - 1 - r, t) if elim and r is not None else (0, 0, t))
    seats = sorted(range(len(totals)), key=lambda s: (keys[s], s))
    return [{"seat": s, "total": totals[s],
             "place": 1 + sum(1 for k in keys if k < keys[s])} for s in seats]


# ---------------------------------------------------------------------------
# The verifier
# ---------------------------------------------------------------------------

CARDLESS_TABLE_EVENTS = {
    # §6: "other types ... do not touch cards" (the list there is "such as";
    # table_created / table_started appear in every archived game stream).
    "table_created.v1", "seat_taken.v1", "seat_left.v1", "table_started.v1", "turn_timed_out.v1",
    "window_passed.v1", "window_closed.v1", "seat_returned.v1",
}
ENTROPY_EVENTS = {"deal_seed_committed.v1", "entropy_contributed.v1"}
# -- Osmosis: which pile a draw or a laid card uses (§6.1) --------------------

def run_shape(cards, ace):
    """§6.1 a run: (start, step) with card i worth start + step * i, or None."""
    parsed = [parse_card(c) for c in cards]
    naturals = [(i, rank, suit) for i, (rank, suit) in enumerate(parsed) if rank != 0]
    if len(cards) < 3 or not naturals or len({s for _, _, s in naturals}) > 1:
        return None
    for ace_value in ((1, 14) if ace == "low_or_high" else (1,)):
        def value(rank):
            return ace_value if rank == 1 else rank
        (i0, r0, _), second = naturals[0], naturals[1:2]
        if second:
            (i1, r1, _), = second
            rise, span = value(r1) - value(r0), i1 - i0
            steps = [1] if rise == span else [-1] if rise == -span else []
        else:
            steps = [1, -1]
        for step in steps:
            start = value(r0) - step * i0
            end = start + step * (len(cards) - 1)
            low, high = min(start, end), max(start, end)
            if ace_value == 14:
                in_range = low >= 2 and high <= 14
            else:
                in_range = (low >= 1 and high <= 13) or (ace == "low_or_high" and low >= 2 and high <= 14)
            if in_range and all(value(r) == start + step * i for i, r, _ in naturals):
                return (start, step)
    return None


def classify(cards, rules):
    """§6.1 "single", "set", ("run", start, step), or None for no combination."""
    if not cards:
        return None
    if len(cards) == 1:
        return "single"
    ranks = [parse_card(c)[0] for c in cards]
    naturals = [r for r in ranks if r != 0]
    if not naturals:
        return "set"
    jokers = len(ranks) - len(naturals)
    if len(set(naturals)) == 1 and (jokers == 0 or rules["jokers_wild"] == "in_runs_and_sets"):
        return "set"
    shape = run_shape(cards, rules["ace"]) if len(cards) >= 3 else None
    if shape is None or (jokers and rules["jokers_wild"] == "never"):
        return None
    return ("run",) + shape


def set_like(cards, rules):
    return classify(cards, rules) in ("single", "set")


def takeable(top, rules):
    """§6.1 the cards of a top throw a draw may take (a list, copies kept)."""
    if not top:
        return []
    ends = [top[0]] if len(top) == 1 else [top[0], top[-1]]
    rule = rules["discard_draw"]
    if rule == "top_only":
        return [top[-1]]
    if rule == "any" or (rule == "any_of_set_ends_of_run" and set_like(top, rules)):
        return list(top)
    return ends


def joker_swap_allowed(top, thrown, rules):
    """§6.1 a throw of the one natural card a joker of the top run stands for."""
    if len(thrown) != 1 or thrown[0] == "JK" or not rules.get("joker_swap", False):
        return False
    kind = classify(top, rules)
    if not isinstance(kind, tuple):
        return False
    _, start, step = kind
    suit = next(c[-1] for c in top if c != "JK")
    for i, c in enumerate(top):
        v = start + step * i
        if c == "JK" and "%s%s" % (RANKS[(1 if v == 14 else v) - 1], suit) == thrown[0]:
            return True
    return False


def multiple_fits(top, card, rules):
    """§6.1 mathematician: one card on a lone card whose value divides its value."""
    if "mathematician" not in rules.get("bonus_rules", []) or len(top) != 1:
        return False
    base, laid = card_value(top[0], rules), card_value(card, rules)
    return base > 0 and laid > 0 and laid % base == 0


def slap_fits(top, card, rules):
    """§6.1 whether the thrower's drawn card may be slapped onto the top throw."""
    if multiple_fits(top, card, rules):
        return True
    if not top:
        return False
    if parse_card(card)[0] == parse_card(top[-1])[0]:
        return True
    kind = classify(top + [card], rules)
    return isinstance(kind, tuple) or (kind == "set" and set_like(top, rules))


def add_on_fits(top, cards, rules):
    """§6.1 whether another player's cards may be added onto the top throw."""
    if not cards or not top:
        return False
    if len(cards) == 1 and multiple_fits(top, cards[0], rules):
        return True
    extended = top + list(cards)
    before, after = classify(top, rules), classify(extended, rules)
    add_ons = rules["add_ons"]
    if before == "single" and after == "set":
        return add_ons["to_single_cards"] and len(extended) == 4
    if before == "set" and after == "set":
        return add_ons["to_sets"] and len(extended) == 4
    if isinstance(before, tuple) and isinstance(after, tuple):
        return add_ons["to_runs"]
    return False


def osmosis_draw_pile(piles, card, thrown, rules):
    """§6.1 the live pile of smallest size whose top offers card, or None."""
    for size in sorted(piles):
        pile = piles[size]
        if pile["dead"]:
            continue
        top = pile["top"]
        if card in takeable(top, rules) or (
                card == "JK" and card in top and joker_swap_allowed(top, thrown, rules)):
            return size
    return None


def osmosis_lay_pile(piles, latest, cards, slap, rules):
    """§6.1 the pile laid cards go on: the latest throw's when they fit, else the live
    pile of smallest size they fit; None when none does."""
    order = [latest] + sorted(s for s in piles if s != latest)
    for size in order:
        pile = piles.get(size)
        if pile is None or pile["dead"]:
            continue
        fits = (len(cards) == 1 and slap_fits(pile["top"], cards[0], rules)) if slap \
            else add_on_fits(pile["top"], cards, rules)
        if fits:
            return size
    return None


def new_piles(up_card):
    """The discard piles of a round just dealt (§6): the up card alone on the original
    pile. Under cell_division a pile per throw size follows, keyed by that size."""
    return {1: {"top": [up_card], "below": Counter(), "dead": False}}


def live_below(r):
    """Every card below the top throws of the piles still live: what a reshuffle takes
    (a pile fifths_disease killed keeps its cards)."""
    return [c for pile in r["piles"].values() if not pile["dead"]
            for c in pile["below"].elements()]


GAME_EVENTS = {
    "game_created.v1", "round_dealt.v1", "turn_played.v1", "stock_reshuffled.v1",
    "slapped_down.v1", "added_on.v1", "called.v1", "went_along.v1",
    "onderkluft_declared.v1", "round_ended.v1", "game_finished.v1", "hands_shown.v1",
    "forced_to_draw.v1", "pinata_set_aside.v1", "pinata_taken.v1", "hands_redealt.v1",
    "queen_swapped.v1", "waterfall_started.v1", "waterfall_picked.v1", "pile_killed.v1",
}
TOURNAMENT_EVENTS = {
    "tournament_created.v1", "stages_configured.v1", "player_registered.v1",
    "player_entered_late.v1", "player_checked_in.v1", "player_check_in_undone.v1",
    "player_withdrew.v1",
    "player_disqualified.v1", "draw_seed_committed.v1", "stage_started.v1",
    "round_drawn.v1", "round_redrawn.v1", "table_game_started.v1",
    "result_recorded.v1", "result_corrected.v1", "game_voided.v1",
    "no_show_recorded.v1", "dispute_opened.v1", "dispute_resolved.v1",
    "tournament_finished.v1", "round_clock_set.v1", "announcement_made.v1",
    "referee_added.v1", "referee_removed.v1",
    "registration_opened.v1", "registration_closed.v1",
}
DEFAULT_TIE_BREAKS = ["table_points", "game_wins", "score_difference", "registration_order"]


class Verifier:
    PHASES = {"chain": 0, "checkpoint": 1, "game": 2, "tournament": 3}

    def __init__(self, archive):
        self.archive = archive
        self.failures = []
        self.checked = Counter()
        self.notes = []
        self._seq = 0
        self.streams = {}          # stream_id -> list of rows (archive order)
        self.stream_order = []
        self.sealed = {}           # stream_id -> first version left out (§1.3)
        self.payloads = {}         # stream_id -> {version: parsed payload or None}
        self.games = {}            # stream_id -> summary for §14.3

    # -- reporting ------------------------------------------------------------
    def fail(self, phase, stream, version, code, reason, kind="wrong"):
        self._seq += 1
        self.failures.append({"stream": stream, "version": version, "code": code,
                              "reason": reason, "kind": kind,
                              "_phase": self.PHASES[phase], "_seq": self._seq})

    def stream_rank(self, stream):
        # §1.3: game streams first in the archive's order, then the tournament's.
        tour = "tournament-%s" % self.archive.get("tournament_id")
        if stream == tour or stream.startswith("tournament-"):
            return (1, 0)
        if stream in self.stream_order:
            return (0, self.stream_order.index(stream))
        return (0, len(self.stream_order))

    def verdict(self):
        fs = sorted(self.failures, key=lambda f: (self.stream_rank(f["stream"]),
                                                  f["version"], f["_phase"], f["_seq"]))
        clean = [{k: v for k, v in f.items() if not k.startswith("_")} for f in fs]
        return {"ok": not clean, "first_failure": clean[0] if clean else None,
                "failures": clean, "checked": dict(sorted(self.checked.items())),
                "sealed": [{"stream": sid, "from": v} for sid, v in sorted(self.sealed.items())],
                "notes": self.notes}

    # -- loading --------------------------------------------------------------
    def load(self):
        a = self.archive
        if not isinstance(a, dict) or a.get("format") != ARCHIVE_FORMAT:
            raise Unreadable("not a %s document" % ARCHIVE_FORMAT)
        if not isinstance(a.get("streams"), list) or not isinstance(a.get("checkpoints", []), list):
            raise Unreadable("streams / checkpoints are not lists")
        for st in a["streams"]:
            if not isinstance(st, dict) or not isinstance(st.get("stream_id"), str) \
                    or not isinstance(st.get("events"), list):
                raise Unreadable("malformed stream entry")
            sid = st["stream_id"]
            if sid in self.streams:
                raise Unreadable("stream %s listed twice" % sid)
            self.streams[sid] = st["events"]
            self.stream_order.append(sid)
            if st.get("sealed_from") is not None:
                self.sealed[sid] = st["sealed_from"]
        self.checked["streams"] = len(self.streams)

    # -- §1.3 streams cut before a round in play -------------------------------
    def check_sealed(self):
        for sid in self.stream_order:
            if sid not in self.sealed:
                continue
            cut = self.sealed[sid]
            rows = self.streams[sid]
            if not isinstance(cut, int) or cut != len(rows) + 1:
                self.fail("chain", sid, cut if isinstance(cut, int) else 0, "sealed_mismatch",
                          "the stream says it is cut before version %r but holds %d events"
                          % (cut, len(rows)))
            elif any(isinstance(r, dict) and r.get("type") == "game_finished.v1" for r in rows):
                self.fail("chain", sid, cut, "sealed_mismatch",
                          "the stream is cut before a round in play, but its game is over")

    # -- §19 chain -----------------------------------------------------------
    def check_chains(self):
        for sid in self.stream_order:
            rows = self.streams[sid]
            prev = ZERO32
            expected_version = 1
            parsed = {}
            for row in rows:
                v = row.get("version") if isinstance(row, dict) else None
                if not isinstance(v, int) or v != expected_version:
                    self.fail("chain", sid, expected_version, "version_gap",
                              "expected version %d, found %r" % (expected_version, v))
                    if not isinstance(v, int):
                        break
                    expected_version = v
                expected_version += 1
                try:
                    ph = bytes.fromhex(row["prev_hash"])
                    hh = bytes.fromhex(row["hash"])
                    if len(ph) != 32 or len(hh) != 32:
                        raise ValueError("hash length")
                    if row["prev_hash"] != row["prev_hash"].lower() or row["hash"] != row["hash"].lower():
                        self.notes.append("%s v%d: upper-case hex in a hash" % (sid, v))
                    if ph != prev:
                        self.fail("chain", sid, v, "prev_hash_mismatch",
                                  "prev_hash %s is not the previous row's hash %s"
                                  % (ph.hex(), prev.hex()))
                    h = event_hash(sid, v, row["type"], row["payload"], row["actor"],
                                   row["request_id"], row["idempotency_key"],
                                   row["recorded_at_micros"], ph)
                    self.checked["events_hashed"] += 1
                    if h != hh:
                        self.fail("chain", sid, v, "hash_mismatch",
                                  "stored hash %s, recomputed %s" % (hh.hex(), h.hex()))
                    prev = hh
                except (KeyError, TypeError, ValueError, AttributeError) as e:
                    self.fail("chain", sid, v, "malformed_row", "row cannot be hashed: %r" % (e,))
                    prev = ZERO32
                # parse the payload for the later sections
                try:
                    p = json.loads(row["payload"])
                    if not isinstance(p, dict):
                        raise ValueError("payload is not an object")
                    if p.get("type") != row.get("type"):
                        self.fail("chain", sid, v, "event_type_mismatch",
                                  "payload type %r, row type %r" % (p.get("type"), row.get("type")))
                    parsed[v] = (row.get("type"), p)
                except (KeyError, TypeError, ValueError) as e:
                    self.fail("chain", sid, v, "malformed_payload", "payload is not JSON: %r" % (e,))
                    parsed[v] = (row.get("type") if isinstance(row, dict) else None, None)
            self.payloads[sid] = parsed

    def stored_hash(self, sid, version):
        rows = self.streams.get(sid, [])
        if 1 <= version <= len(rows):
            row = rows[version - 1]
            if isinstance(row, dict) and row.get("version") == version:
                return row.get("hash")
        for row in rows:
            if isinstance(row, dict) and row.get("version") == version:
                return row.get("hash")
        return None

    def stream_length(self, sid):
        vs = [r.get("version") for r in self.streams.get(sid, []) if isinstance(r, dict)
              and isinstance(r.get("version"), int)]
        return max(vs) if vs else 0

    # -- §20 checkpoints -------------------------------------------------------
    def check_checkpoints(self):
        cps = self.archive.get("checkpoints", [])
        per_stream = {}   # sid -> list of (version, head_hash, checkpoint id)
        for cp in cps:
            self.checked["checkpoints"] += 1
            cid = cp.get("id")
            heads = cp.get("heads", [])
            anchor = heads[0].get("stream_id") if heads else None
            if cp.get("format") != CHECKPOINT_FORMAT:
                self.fail("checkpoint", anchor or "?", 0, "unverifiable_checkpoint_format",
                          "checkpoint %r has format %r" % (cid, cp.get("format")), "unverifiable")
                continue
            root = decode_hex32(cp.get("root"))
            count = cp.get("streams")
            if root is None:
                self.fail("checkpoint", anchor or "?", 0, "malformed_checkpoint",
                          "checkpoint %r: bad root" % (cid,))
                continue
            indices = []
            seen = set()
            for head in heads:
                sid, ver = head.get("stream_id"), head.get("version")
                hh = decode_hex32(head.get("head_hash"))
                if sid in seen:
                    self.fail("checkpoint", sid, ver or 0, "checkpoint_duplicate_head",
                              "checkpoint %r lists %s twice" % (cid, sid))
                seen.add(sid)
                if not isinstance(sid, str) or not isinstance(ver, int) or hh is None:
                    self.fail("checkpoint", sid or "?", 0, "malformed_checkpoint",
                              "checkpoint %r: malformed head %r" % (cid, head))
                    continue
                value = checkpoint_leaf(sid, ver, hh)
                shape = []
                ok = True
                for step in head.get("path", []):
                    if isinstance(step, dict) and len(step) == 1 and "left" in step \
                            and decode_hex32(step["left"]) is not None:
                        value = checkpoint_node(decode_hex32(step["left"]), value)
                        shape.append("left")
                    elif isinstance(step, dict) and len(step) == 1 and "right" in step \
                            and decode_hex32(step["right"]) is not None:
                        value = checkpoint_node(value, decode_hex32(step["right"]))
                        shape.append("right")
                    else:
                        ok = False
                self.checked["merkle_paths"] += 1
                if not ok or value != root:
                    self.fail("checkpoint", sid, ver, "checkpoint_path_mismatch",
                              "head (%s, %d) does not lead to the root of checkpoint %r"
                              % (sid, ver, cid))
                    continue
                # the path must be one of a tree of `streams` leaves (§20.4)
                if isinstance(count, int) and count >= 1:
                    cands = [i for i in range(count) if path_shape(i, count) == shape]
                    if not cands:
                        self.fail("checkpoint", sid, ver, "checkpoint_path_shape",
                                  "the path of (%s, %d) fits no leaf of a %d-head checkpoint %r"
                                  % (sid, ver, count, cid))
                    else:
                        indices.append((sid.encode("utf-8"), cands, sid, ver))
                per_stream.setdefault(sid, []).append((ver, hh.hex(), cid))
            # heads sorted by the bytes of stream_id (§20.1): leaf positions must agree
            indices.sort()
            last = -1
            for _, cands, sid, ver in indices:
                nxt = [i for i in cands if i > last]
                if not nxt:
                    self.fail("checkpoint", sid, ver, "checkpoint_head_order",
                              "leaf position of %s in checkpoint %r breaks the byte order "
                              "of stream ids" % (sid, cid))
                    break
                last = nxt[0]
        # §1.3 each stream's last version recorded by some checkpoint (a later one is
        # truncated_since_checkpoint's to name, below); a sealed stream holds back its head
        for sid in self.stream_order:
            n = self.stream_length(sid)
            if sid in self.sealed or n == 0:
                continue
            highest = max((ver for ver, _, _ in per_stream.get(sid, [])), default=0)
            if highest < n:
                self.fail("checkpoint", sid, n, "archive_head_not_checkpointed",
                          "no checkpoint records version %d, the stream's last (highest "
                          "recorded: %d): nothing shows it ended there when exported"
                          % (n, highest))
        # §20.3 each stream against its checkpointed versions
        for sid, entries in per_stream.items():
            n = self.stream_length(sid)
            prev_ok = 0
            for ver, hh, cid in sorted(entries):
                self.checked["checkpointed_versions"] += 1
                if n < ver:
                    # §20.3: reported at the first version missing
                    self.fail("checkpoint", sid, n + 1, "truncated_since_checkpoint",
                              "checkpoint %r recorded version %d; the stream ends at %d"
                              % (cid, ver, n))
                    break
                stored = self.stored_hash(sid, ver)
                if stored != hh:
                    self.fail("checkpoint", sid, ver, "rewritten_since_checkpoint",
                              "checkpoint %r recorded %s at version %d, the stream has %s "
                              "(an event in versions %d..%d was changed)"
                              % (cid, hh, ver, stored, prev_ok + 1, ver))
                else:
                    prev_ok = ver

    # -- §5-11 game streams ---------------------------------------------------
    def check_games(self):
        for sid in self.stream_order:
            if sid.startswith("tournament-"):
                continue
            GameChecker(self, sid).run()

    # -- §12-18 tournament stream --------------------------------------------
    def check_tournament(self):
        tid = self.archive.get("tournament_id")
        sid = "tournament-%s" % tid
        if sid not in self.streams:
            self.fail("tournament", sid, 0, "missing_stream",
                      "the archive has no stream %s" % sid)
            return
        if self.stream_order[0] != sid:
            self.fail("tournament", sid, 0, "archive_layout",
                      "the tournament's stream is not first (§1.3)")
        TournamentChecker(self, sid).run()

    def run(self):
        self.load()
        self.check_sealed()
        self.check_chains()
        self.check_checkpoints()
        self.check_games()
        self.check_tournament()
        return self.verdict()


# ---------------------------------------------------------------------------
# game streams
# ---------------------------------------------------------------------------

class EntropyChecker:
    """§8.3 player entropy: the server's commitment, the contributions, the mix."""

    def __init__(self, game, table_created):
        self.game = game
        self.enabled = bool(table_created.get("player_entropy"))
        seats = table_created["seats"]
        bots = {b["seat"] for b in table_created.get("bots", [])}
        self.contributors = [self.enabled and s not in bots for s in range(seats)]
        self.pending = None       # {"round", "seed", "values": {seat: bytes or None}}
        self.last_dealt = 0

    def awaiting(self):
        if self.pending is None:
            return []
        return [s for s, c in enumerate(self.contributors)
                if c and s not in self.pending["values"]]

    def on_committed(self, version, p):
        fail = self.game.fail
        pending = {"round": p["round"], "seed": decode_hex32(p.get("seed")), "values": {}}
        if not self.enabled:
            fail(version, "unexpected_event", "deal_seed_committed.v1 without player_entropy")
        elif self.pending is not None:
            fail(version, "unexpected_event", "a second commitment before the deal")
        elif p["round"] != self.last_dealt + 1:
            fail(version, "unexpected_event", "commitment for round %r after round %d"
                 % (p["round"], self.last_dealt))
        elif p.get("procedure") != ENTROPY_PROCEDURE:
            fail(version, "unexpected_event", "procedure %r" % (p.get("procedure"),))
        elif pending["seed"] is None or sha256(pending["seed"]).hex() != str(p.get("commitment")).lower():
            fail(version, "commitment_mismatch", "SHA-256 of the server's seed is not the commitment")
        self.pending = pending
        self.game.v.checked["entropy_commitments"] += 1

    def on_contributed(self, version, p):
        seat, rno = p["seat"], p["round"]
        ok_seat = isinstance(seat, int) and 0 <= seat < len(self.contributors) \
            and self.contributors[seat]
        if not self.enabled:
            self.game.fail(version, "unexpected_event", "entropy_contributed.v1 without player_entropy")
        elif not ok_seat:
            self.game.fail(version, "unexpected_event", "seat %r sends no contribution" % (seat,))
        elif self.pending is None or self.pending["round"] != rno:
            self.game.fail(version, "unexpected_event", "no commitment for round %r" % (rno,))
        elif seat in self.pending["values"]:
            self.game.fail(version, "unexpected_event", "seat %d contributed twice" % seat)
        else:
            value = p.get("value")
            self.pending["values"][seat] = None if value is None else decode_hex32(value)

    def deal_seed(self):
        h = hashlib.sha256()
        h.update(ENTROPY_PROCEDURE.encode("ascii") + b"\0")
        h.update(self.pending["seed"])
        for s in range(len(self.contributors)):
            h.update(self.pending["values"].get(s) or ZERO32)
        return h.digest()

    def on_dealt(self, version, p):
        """Returns nothing; records at most the first failure, as §8.3 orders them."""
        pending, self.last_dealt = self.pending, p["round"]
        try:
            if not self.enabled:
                return
            if pending is None or pending["round"] != p["round"] or pending["seed"] is None:
                self.game.fail(version, "deal_without_commitment",
                               "round %r dealt without a committed server seed" % (p["round"],))
                return
            missing = self.awaiting()
            if missing:
                self.game.fail(version, "contribution_missing",
                               "seats %r had not contributed" % (missing,))
                return
            want = self.deal_seed()
            deal = p["deal"]
            if deal.get("kind") != "shuffled" or decode_hex32(deal.get("seed")) != want:
                self.game.fail(version, "entropy_mismatch",
                               "the deal's seed is not the mix (%s)" % want.hex())
                return
            self.game.v.checked["entropy_deals"] += 1
            if p["round"] == 1:
                drawn = Keystream(want, STARTER_STREAM).uniform(len(self.contributors))
                if drawn != p["starter"]:
                    self.game.fail(version, "starter_mismatch",
                                   "round 1 starter %r, the mixed seed draws %d" % (p["starter"], drawn))
        finally:
            self.pending = None

    def on_round_ended(self, p):
        for s in p.get("eliminated", []):
            if isinstance(s, int) and 0 <= s < len(self.contributors):
                self.contributors[s] = False


class GameChecker:
    def __init__(self, v, sid):
        self.v = v
        self.sid = sid
        self.table_created = None
        self.seat_accounts = {}
        self.seat_names = []          # per seat, the player sitting there ("" when empty)
        self.started_players = None   # table_started.v1.players
        self.rules = None
        self.players = None
        self.totals = None
        self.in_game = None           # per seat, not eliminated
        self.eliminated_round = {}
        self.successful_calls = None
        self.round = None             # current round state (dict) or None
        self.last_round_no = 0
        self.last_end = None          # expected next round (round, starter, dealer)
        self.expect = None            # (event type, reason) the next event must be
        self.finished = None
        self.pending_finish = None
        self.entropy = None
        self.spy_due = None           # seat that threw a queen of diamonds under spy
        self.forced_due = []          # seats still to draw for sevens thrown, in order
        self.pinata_due = None        # seat whose three moves the piñata
        self.redeal_due = None        # seat whose black eight re-deals
        self.queen_due = None         # (seat, cards left after its throw) a queen swaps for
        self.empty_due = None         # seat whose slapped card's effects come before its empty hand
        self.slap_downs_play = False  # game_created.v1: a slapped card sets off the bonus rules
        self.osmosis = False  # game_created.v1: the piles are open (§6.1)
        self.hands_uncapped = False  # game_created.v1: a hand takes any number of cards (§6)
        self.pile_tops_keep_order = False  # game_created.v1: a draw off a top keeps its order (§6.1)
        self.waterfall = None         # the straight going round: initiator, next, cards left

    def fail(self, version, code, reason, kind="wrong"):
        self.v.fail("game", self.sid, version, code, reason, kind)

    def run(self):
        events = self.v.payloads.get(self.sid, {})
        summary = {"table_created": None, "seats": {}, "finished": None,
                   "players": None}
        self.v.games[self.sid] = summary
        for version in sorted(events):
            etype, p = events[version]
            if p is None:
                continue
            if self.expect is not None:
                want, why = self.expect
                self.expect = None
                if etype not in want:
                    self.fail(version, "expected_event",
                              "%s must follow (%s); found %s" % (" or ".join(sorted(want)), why, etype))
            try:
                self.handle(version, etype, p)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
                self.fail(version, "malformed_event", "%s cannot be checked: %r" % (etype, e))
        if self.expect is not None:
            want, why = self.expect
            self.fail(self.v.stream_length(self.sid) + 1, "expected_event",
                      "%s must follow (%s); the stream ends" % (" or ".join(sorted(want)), why))
        summary["table_created"] = self.table_created
        summary["seats"] = dict(self.seat_accounts)
        summary["finished"] = self.finished
        summary["players"] = self.players

    def handle(self, version, etype, p):
        if etype in ENTROPY_EVENTS:
            if self.entropy is None:
                self.fail(version, "unexpected_event", "%s before table_created.v1" % etype)
            elif etype == "deal_seed_committed.v1":
                self.entropy.on_committed(version, p)
            else:
                self.entropy.on_contributed(version, p)
            return
        if self.entropy is not None and etype == "round_dealt.v1":
            self.entropy.on_dealt(version, p)
        if self.entropy is not None and etype == "round_ended.v1":
            self.entropy.on_round_ended(p)
        if etype in CARDLESS_TABLE_EVENTS:
            if etype == "table_created.v1":
                self.table_created = p
                self.entropy = EntropyChecker(self, p)
                self.seat_names = [""] * p["seats"]
                for bot in p.get("bots", []):
                    self.seat_names[bot["seat"]] = bot["name"]
            elif etype == "seat_taken.v1":
                self.seat_accounts[p["seat"]] = p["account_id"]
                self.seat_names[p["seat"]] = p["username"]
            elif etype == "seat_left.v1":
                self.seat_accounts.pop(p["seat"], None)
                self.seat_names[p["seat"]] = ""
            elif etype == "table_started.v1":
                # §6: the players named at the start are the ones seated, every seat filled
                if p["players"] != self.seat_names or "" in p["players"]:
                    self.fail(version, "table_mismatch",
                              "table_started.v1 names %s; the seats hold %s"
                              % (p["players"], self.seat_names))
                self.started_players = list(p["players"])
            return
        if etype not in GAME_EVENTS:
            self.fail(version, "unverifiable_event_type",
                      "event type %s is not implemented by this verifier" % etype, "unverifiable")
            return
        getattr(self, "on_" + etype[:-3])(version, p)

    # -- events -------------------------------------------------------------
    def on_game_created(self, version, p):
        if self.rules is not None:
            self.fail(version, "second_game", "a second game_created.v1 in one stream")
        self.rules = p["rules"]
        self.players = p["players"]
        self.slap_downs_play = bool(p.get("slap_downs_play", False))
        self.hands_uncapped = bool(p.get("hands_uncapped", False))
        self.pile_tops_keep_order = bool(p.get("pile_tops_keep_order", False))
        self.osmosis = "osmosis" in self.rules.get("bonus_rules", [])
        unknown = [b for b in self.rules.get("bonus_rules", [])
                   if b not in ("cell_division", "crazy_queens", "double_edged_sword",
                                "fifths_disease", "landmine", "mathematician", "osmosis", "pinata",
                                "sevens", "southern_hemisphere", "spy", "waterfall",
                                "wormhole")]
        if unknown:
            self.fail(version, "unverifiable_rules",
                      "bonus rules %r are not in §10.2" % (unknown,), "unverifiable")
        n = len(self.players)
        if self.started_players is not None and self.players != self.started_players:
            self.fail(version, "table_mismatch", "game_created.v1 names %s; the table started with %s"
                      % (self.players, self.started_players))
        self.totals = list(p["initial_totals"])
        if len(self.totals) != n:
            self.fail(version, "initial_totals", "initial_totals has %d entries for %d players"
                      % (len(self.totals), n))
        self.in_game = [True] * n
        self.successful_calls = [0] * n
        if self.table_created is not None and "effective_rules" in self.table_created \
                and self.table_created["effective_rules"] != self.rules:
            self.fail(version, "rules_mismatch",
                      "game_created.v1.rules differ from table_created.v1.effective_rules (§9.1)")
        self.v.checked["games"] += 1

    def on_round_dealt(self, version, p):
        if self.rules is None:
            raise ValueError("round before game_created")
        self.waterfall = None
        self.queen_due = None
        if self.round is not None:
            self.fail(version, "round_not_ended", "round %d dealt while round %d is in play"
                      % (p["round"], self.round["no"]))
        if self.finished is not None:
            self.fail(version, "game_over", "a round dealt after game_finished.v1")
        n = len(self.players)
        rno, starter, dealer = p["round"], p["starter"], p["dealer"]
        if rno != self.last_round_no + 1:
            self.fail(version, "round_number", "round %d follows round %d" % (rno, self.last_round_no))
        self.last_round_no = rno
        if not (isinstance(starter, int) and 0 <= starter < n and self.in_game[starter]):
            raise ValueError("starter %r is not a seat in the game" % (starter,))
        if self.last_end is None:
            # round 1 (§10.8): starter free, dealer null or the seat before the starter
            want_dealer = None if self.rules.get("next_starter") == "lowest_hand" else (starter - 1) % n
            if dealer != want_dealer:
                self.fail(version, "dealer", "round 1 dealer %r, expected %r" % (dealer, want_dealer))
        else:
            _, want_starter, want_dealer = self.last_end
            if starter != want_starter or dealer != want_dealer:
                self.fail(version, "next_starter_mismatch",
                          "round %d dealt with dealer %r starter %r; round %d ended with "
                          "next_dealer %r next_starter %r" % (rno, dealer, starter, rno - 1,
                                                              want_dealer, want_starter))
        if dealer is None:
            # the seat still in just before the starter (§10.8)
            for i in range(1, n + 1):
                s = (starter - i) % n
                if self.in_game[s]:
                    dealer_eff = s
                    break
        else:
            dealer_eff = dealer
        deal = p["deal"]
        r = {"no": rno, "starter": starter, "dealer": dealer_eff, "reshuffles": 0,
             "latest": 1, "killed": False, "call": None, "going": {}, "challengers": {},
             "declared": [], "empty": None, "version": version, "pinata": None,
             "redeals": 0, "queen_swaps": 0, "turn": starter, "reversed": False,
             "slap": None}
        self.round = r
        deck = canonical_deck(self.rules, n)
        hs = self.rules["hand_size"]
        order = [(starter + i) % n for i in range(n) if self.in_game[(starter + i) % n]]
        k = len(order)
        if deal.get("kind") == "shuffled":
            if deal.get("algorithm") != DEAL_ALGORITHM:
                self.fail(version, "unverifiable_deal_algorithm",
                          "deal algorithm %r is not implemented" % (deal.get("algorithm"),),
                          "unverifiable")
                self.round = None
                return
            seed = decode_hex32(deal.get("seed"))
            if seed is None:
                self.fail(version, "unverifiable_seed", "the deal's seed is missing or malformed",
                          "unverifiable")
                self.round = None
                return
            self.v.checked["seed_commitments"] += 1
            if sha256(seed).hex() != str(deal.get("commitment")).lower():
                self.fail(version, "commitment_mismatch",
                          "SHA-256(seed) = %s, commitment %s" % (sha256(seed).hex(), deal.get("commitment")))
            d = shuffle(deck, seed, 0)
            if k * hs + 1 > len(d):
                raise ValueError("not enough cards to deal")
            hands = [None] * n
            for s in order:
                hands[s] = []
            pos = 0
            for _ in range(hs):
                for s in order:
                    hands[s].append(d[pos])
                    pos += 1
            r.update(seeded=True, seed=seed, hands=hands, piles=new_piles(d[pos]), stock=d[pos + 1:])
            self.v.checked["deals_shuffled"] += 1
        elif deal.get("kind") == "explicit":
            hands = [list(h) for h in deal["hands"]]
            up = deal["up_card"]
            avail = Counter(deck)
            if len(hands) != n:
                self.fail(version, "explicit_deal", "hands has %d lists for %d seats" % (len(hands), n))
            for s in range(min(n, len(hands))):
                want = hs if self.in_game[s] else 0
                if len(hands[s]) != want:
                    self.fail(version, "explicit_deal", "seat %d has %d cards, expected %d"
                              % (s, len(hands[s]), want))
            for c in [c for h in hands for c in h] + [up]:
                parse_card(c)
                if avail[c] <= 0:
                    self.fail(version, "explicit_deal", "%s more often than the deck holds it" % c)
                avail[c] -= 1
            avail = +avail
            hands = [h if self.in_game[s] else None for s, h in enumerate(hands[:n])]
            r.update(seeded=False, seed=None, hands=hands, piles=new_piles(up), stock=avail)
            self.v.checked["deals_explicit"] += 1
        else:
            self.fail(version, "unverifiable_deal_kind", "deal kind %r" % (deal.get("kind"),),
                      "unverifiable")
            self.round = None

    def _round(self, version, what):
        if self.round is None:
            raise ValueError("%s outside a verifiable round" % what)
        if self.round.get("ended"):
            self.fail(version, "after_round_end", "%s after round_ended.v1" % what)
        return self.round

    def _seat(self, r, seat):
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(r["hands"]) \
                or r["hands"][seat] is None:
            raise ValueError("seat %r is not in the round" % (seat,))
        return seat

    def _remove_from_hand(self, version, r, seat, card):
        parse_card(card)
        hand = r["hands"][seat] if 0 <= seat < len(r["hands"]) else None
        if hand is None:
            raise ValueError("seat %r is not in the round" % (seat,))
        if not swap_remove(hand, card):
            self.fail(version, "card_not_in_hand", "seat %d does not hold %s" % (seat, card))

    def _next_in_play(self, r, seat):
        """§6, whose turn it is: the next seat in the round in the direction of play,
        which Southern hemisphere's nines may have reversed."""
        n = len(r["hands"])
        step = -1 if r["reversed"] else 1
        return next((seat + step * i) % n for i in range(1, n + 1)
                    if r["hands"][(seat + step * i) % n] is not None)

    def _pass_the_turn(self, r, seat, cards):
        """After seat played cards before any call: a natural nine reverses the
        direction under southern_hemisphere; the turn goes to the next seat from seat."""
        if r["call"] is not None:
            return
        if "southern_hemisphere" in self.rules.get("bonus_rules", []) and \
                any(x != "JK" and parse_card(x)[0] == 9 for x in cards):
            r["reversed"] = not r["reversed"]
        r["turn"] = self._next_in_play(r, seat)

    def on_turn_played(self, version, p):
        r = self._round(version, "turn_played.v1")
        self._seat(r, p["seat"])
        self._no_waterfall_going(version, "turn")
        seat = p["seat"]
        if r["call"] is None and seat != r["turn"]:
            self.fail(version, "not_your_turn", "seat %d plays a turn; it is seat %d's turn"
                      % (seat, r["turn"]))
        for c in p["thrown"]:
            self._remove_from_hand(version, r, seat, c)
        size = len(p["thrown"]) if "cell_division" in self.rules.get("bonus_rules", []) else 1
        if r["piles"].get(size, {}).get("dead"):
            self.fail(version, "illegal_throw",
                      "a throw of %d cards: fifths_disease killed that pile" % size)
        left = list(r["hands"][seat])
        draw = p["draw"]
        if "stock" in draw:
            c = self._take_from_stock(version, r, seat, draw["stock"])
            self.v.checked["stock_draws"] += 1
        elif "discard" in draw:
            c = draw["discard"]
            parse_card(c)
            self.v.checked["discard_draws"] += 1
            # §6: the previous throw on the pile of this throw's size (cell_division);
            # under osmosis the pile §6.1 picks
            if self.osmosis:
                source = r["piles"].get(osmosis_draw_pile(r["piles"], c, p["thrown"], self.rules))
            else:
                source = r["piles"].get(size)
            if source is not None and not source["dead"] and c in source["top"]:
                # §6.1: the order left in a top matters under osmosis (ends, fits)
                if self.pile_tops_keep_order:
                    source["top"].remove(c)
                else:
                    swap_remove(source["top"], c)
            else:
                self.fail(version, "illegal_draw", "%s is not in the previous throw %s"
                          % (c, source["top"] if source else []))
        else:
            raise ValueError("unknown draw %r" % (draw,))
        r["hands"][seat].append(c)
        slap = self.rules.get("slap_down")
        r["slap"] = (seat, c) if slap == "after_any_draw" or \
            (slap == "after_stock_draw" and "stock" in draw) else None
        pile = r["piles"].setdefault(size, {"top": [], "below": Counter(), "dead": False})
        pile["below"].update(pile["top"])
        pile["top"] = list(p["thrown"])
        r["latest"], r["killed"] = size, False
        self._pass_the_turn(r, seat, p["thrown"])
        self._owe_played_card_effects(r, seat, p["thrown"], left)
        self._expect_after_draw(r)

    def _owe_played_card_effects(self, r, seat, cards, left):
        """What the bonus rules owe when seat has played cards (a turn's thrown, or a
        slapped card where slap-downs play, §6), left being the hand after laying them."""
        bonus = self.rules.get("bonus_rules", [])
        if "spy" in bonus and "QD" in cards:
            self.spy_due = seat
        sevens = sum(1 for x in cards if x != "JK" and parse_card(x)[0] == 7)
        if "sevens" in bonus and sevens:
            n = len(r["hands"])
            call = r["call"]
            closed = call[1] if call is not None and call[0] == "go_along" else None
            for i in range(1, n):
                s = (seat + i) % n
                if r["hands"][s] is not None and s != closed:
                    self.forced_due.extend([s] * sevens)
        if "pinata" in bonus and any(x != "JK" and parse_card(x)[0] == 3 for x in cards):
            self.pinata_due = seat
        if "double_edged_sword" in bonus and any(x in ("8C", "8S") for x in cards):
            self.redeal_due = seat
        queens = any(x != "JK" and parse_card(x)[0] == 12 for x in cards)
        if "crazy_queens" in bonus and queens and left and self._queen_targets(r, seat):
            self.queen_due = (seat, left)

    def _queen_targets(self, r, seat):
        """Whom a queen may target (§6): the other seats in the round, not a closed caller."""
        n = len(r["hands"])
        call = r["call"]
        closed = call[1] if call is not None and call[0] == "go_along" else None
        return [(seat + i) % n for i in range(1, n)
                if r["hands"][(seat + i) % n] and (seat + i) % n != closed]

    def _take_from_stock(self, version, r, seat, c):
        """A card drawn from the stock (§6): its top when seeded, any copy on paper."""
        if c is None:
            self.fail(version, "unverifiable_stock_draw", "the stock draw is redacted",
                      "unverifiable")
            c = r["stock"][0] if r["seeded"] and r["stock"] else None
        parse_card(c)
        if r["seeded"]:
            if not r["stock"]:
                self.fail(version, "stock_empty", "draw of %s from an empty stock" % c)
            else:
                top = r["stock"].pop(0)
                if top != c:
                    self.fail(version, "card_not_available",
                              "seat %d drew %s but the top of the stock is %s" % (seat, c, top))
        else:
            if r["stock"][c] <= 0:
                self.fail(version, "card_not_available", "%s is not in the stock" % c)
            else:
                r["stock"][c] -= 1
                r["stock"] = +r["stock"]
        return c

    def _full(self, hand):
        """§6: a hand takes no more cards from a bonus rule only in a game without
        hands_uncapped, once it holds MAX_HAND."""
        return not self.hands_uncapped and len(hand) >= MAX_HAND

    def _expect_after_draw(self, r):
        """What must follow a draw (§6): a reshuffle of an emptied stock, then the swap a
        queen makes under crazy_queens, then the draws
        sevens still force (a full hand draws no more; they lapse when no card is left),
        then what a three does with the piñata, then the hands a queen of diamonds shows."""
        if len(r["stock"]) == 0 and len(live_below(r)) > 0:
            self.expect = ({"stock_reshuffled.v1"}, "the stock ran out (§6 step 5)")
            return
        if self.queen_due is not None:
            self.expect = ({"queen_swapped.v1"}, "a queen under crazy_queens (§6)")
            return
        while self.forced_due and self._full(r["hands"][self.forced_due[0]]):
            self.forced_due.pop(0)
        if self.forced_due and len(r["stock"]) > 0:
            self.expect = ({"forced_to_draw.v1"}, "a seven under sevens (§6)")
            return
        self.forced_due = []
        if self.pinata_due is not None:
            if r["pinata"] is not None:
                if not self._full(r["hands"][self.pinata_due]):
                    self.expect = ({"pinata_taken.v1"}, "a three takes the piñata set aside (§6)")
                    return
            elif len(r["stock"]) > 0:
                self.expect = ({"pinata_set_aside.v1"}, "a three under pinata (§6)")
                return
            self.pinata_due = None
        if self.redeal_due is not None:
            self.expect = ({"hands_redealt.v1"}, "a black eight under double_edged_sword (§6)")
            return
        if self.spy_due is not None:
            self.expect = ({"hands_shown.v1"}, "a queen of diamonds under spy (§6)")
            return
        if self.empty_due is not None:
            seat, self.empty_due = self.empty_due, None
            self._check_empty_hand(None, r, seat)

    def on_pinata_set_aside(self, version, p):
        r = self._round(version, "pinata_set_aside.v1")
        seat, self.pinata_due = self.pinata_due, None
        if seat is None or r["pinata"] is not None:
            self.fail(version, "unexpected_event",
                      "a piñata set aside without a three under pinata, or with one aside")
            return
        r["pinata"] = self._take_from_stock(version, r, seat, p["card"])
        self.v.checked["pinatas"] += 1
        self._expect_after_draw(r)

    def on_pinata_taken(self, version, p):
        r = self._round(version, "pinata_taken.v1")
        seat = self._seat(r, p["seat"])
        due, self.pinata_due = self.pinata_due, None
        if due != seat or r["pinata"] is None:
            self.fail(version, "unexpected_event",
                      "seat %r takes a piñata; the three owed it to %r" % (seat, due))
            return
        c = p["card"]
        if c is None:
            self.fail(version, "unverifiable_pinata", "the piñata taken is redacted",
                      "unverifiable")
            c = r["pinata"]
        elif c != r["pinata"]:
            self.fail(version, "pinata_mismatch",
                      "seat %d takes %s but %s was set aside" % (seat, c, r["pinata"]))
        r["hands"][seat].append(c)
        r["pinata"] = None
        self._expect_after_draw(r)

    def on_hands_redealt(self, version, p):
        r = self._round(version, "hands_redealt.v1")
        r["slap"] = None  # the card just drawn went with the old hand
        dealer, self.redeal_due = self.redeal_due, None
        if dealer is None or p["dealer"] != dealer:
            self.fail(version, "unexpected_event",
                      "a re-deal by %r without a black eight under double_edged_sword"
                      % (p["dealer"],))
            return
        n = len(r["hands"])
        call = r["call"]
        closed = call[1] if call is not None and call[0] == "go_along" else None
        order = [(dealer + i) % n for i in range(1, n + 1)]
        order = [s for s in order if r["hands"][s] is not None and s != closed]
        cards = sorted((c for s in order for c in r["hands"][s]), key=card_code)
        r["redeals"] += 1
        if p["redeal"] != r["redeals"]:
            self.fail(version, "redeal_number", "redeal %r, expected %d"
                      % (p["redeal"], r["redeals"]))
        got = p["hands"]
        if r["seeded"]:
            dealt = shuffle(cards, r["seed"], REDEAL_STREAM + r["redeals"])
            want = [None] * n
            for s in order:
                want[s] = []
            for i, c in enumerate(dealt):
                want[order[i % len(order)]].append(c)
            for s in range(n):
                mine = want[s]
                theirs = got[s] if s < len(got) else None
                if theirs is None and mine is not None:
                    self.fail(version, "unverifiable_redeal", "seat %d's new hand is redacted"
                              % s, "unverifiable")
                elif mine != theirs:
                    self.fail(version, "event_mismatch", "seat %d is dealt %s; the seed gives %s"
                              % (s, theirs, mine))
                    return
        else:
            want = [None] * n
            for i, s in enumerate(order):
                size = len(cards) // len(order) + (1 if i < len(cards) % len(order) else 0)
                hand = got[s] if s < len(got) else None
                if hand is None or len(hand) != size:
                    self.fail(version, "event_mismatch", "seat %d is dealt %r, not %d cards"
                              % (s, hand, size))
                    return
                want[s] = list(hand)
            if sorted((c for s in order for c in want[s]), key=card_code) != cards:
                self.fail(version, "event_mismatch",
                          "the new hands are not the cards gathered from the old ones")
                return
        for s in order:
            r["hands"][s] = list(want[s])
        self.v.checked["redeals"] += 1
        self._expect_after_draw(r)

    def on_queen_swapped(self, version, p):
        r = self._round(version, "queen_swapped.v1")
        due, self.queen_due = self.queen_due, None
        if due is None or p["seat"] != due[0]:
            self.fail(version, "unexpected_event",
                      "a swap by %r without a queen under crazy_queens" % (p["seat"],))
            return
        seat, left = due
        target = p["target"]
        if target not in self._queen_targets(r, seat):
            self.fail(version, "queen_swap_not_allowed", "seat %r cannot be targeted" % (target,))
            return
        r["queen_swaps"] += 1
        if p["swap"] != r["queen_swaps"]:
            self.fail(version, "queen_swap_number", "swap %r, expected %d"
                      % (p["swap"], r["queen_swaps"]))
        given, taken = p["given"], p["taken"]
        if given is None or taken is None:
            self.fail(version, "unverifiable_queen_swap", "the swap's cards are redacted",
                      "unverifiable")
            return
        if given not in left:
            self.fail(version, "queen_swap_not_allowed",
                      "seat %d gives %s, not a card left after its throw" % (seat, given))
            return
        face_down = r["hands"][target]
        if r["seeded"]:
            order = shuffle(sorted(face_down, key=card_code), r["seed"],
                            QUEEN_STREAM + r["queen_swaps"])
            if order[0] != taken:
                self.fail(version, "event_mismatch",
                          "the blind pick took %s; the seed gives %s" % (taken, order[0]))
                return
        elif taken not in face_down:
            self.fail(version, "queen_swap_not_allowed",
                      "%s is not in seat %d's hand" % (taken, target))
            return
        self._remove_from_hand(version, r, seat, given)
        self._remove_from_hand(version, r, target, taken)
        r["hands"][seat].append(taken)
        r["hands"][target].append(given)
        self.v.checked["queen_swaps"] += 1
        self._expect_after_draw(r)

    def _next_in_round(self, r, seat):
        n = len(r["hands"])
        return next((seat + i) % n for i in range(1, n + 1) if r["hands"][(seat + i) % n] is not None)

    def on_waterfall_started(self, version, p):
        r = self._round(version, "waterfall_started.v1")
        r["slap"] = None  # a waterfall begins the next turn
        seat = self._seat(r, p["seat"])
        players = sum(1 for h in r["hands"] if h is not None)
        if "waterfall" not in self.rules.get("bonus_rules", []) or self.waterfall is not None:
            self.fail(version, "unexpected_event", "a waterfall without the rule, or inside one")
            return
        cards = p["cards"]
        if cards is None:
            self.fail(version, "unverifiable_waterfall", "the straight is redacted", "unverifiable")
            return
        ace_high = self.rules.get("ace") == "low_or_high"
        full = [s for s, h in enumerate(r["hands"]) if s != seat and h is not None
                and self._full(h)]
        if seat != r["turn"]:
            self.fail(version, "not_your_turn", "seat %d starts a waterfall; it is seat %d's turn"
                      % (seat, r["turn"]))
            return
        if full:
            self.fail(version, "waterfall_not_allowed",
                      "seat %d holds %d cards and cannot take one" % (full[0], MAX_HAND))
            return
        if players < 3 or len(cards) != players or not unsuited_straight(cards, ace_high):
            self.fail(version, "waterfall_not_allowed",
                      "%s is not a straight of one card per player (%d)" % (cards, players))
            return
        for c in cards:
            self._remove_from_hand(version, r, seat, c)
        if p["to"] != self._next_in_round(r, seat):
            self.fail(version, "event_mismatch", "passed to %r, not to the left" % (p["to"],))
            return
        self.waterfall = {"initiator": seat, "next": p["to"], "left": list(cards)}
        self.v.checked["waterfalls"] += 1

    def on_waterfall_picked(self, version, p):
        r = self._round(version, "waterfall_picked.v1")
        seat = self._seat(r, p["seat"])
        w = self.waterfall
        if w is None or w["next"] != seat:
            self.fail(version, "unexpected_event", "seat %r keeps a card of no waterfall" % seat)
            return
        card, passed = p["card"], p["passed"]
        if card is None or passed is None:
            self.fail(version, "unverifiable_waterfall", "the cards kept or passed are redacted",
                      "unverifiable")
            self.waterfall = None
            return
        left = list(w["left"])
        if not swap_remove(left, card):
            self.fail(version, "waterfall_not_allowed",
                      "keeps %s, which is not among %s" % (card, w["left"]))
            return
        if Counter(left) != Counter(passed):
            self.fail(version, "event_mismatch",
                      "keeps %s and passes %s of %s" % (card, passed, w["left"]))
            return
        r["hands"][seat].append(card)
        to = self._next_in_round(r, seat)
        if p["to"] != to:
            self.fail(version, "event_mismatch", "passed to %r, not to the left" % (p["to"],))
            return
        if to == w["initiator"]:
            r["hands"][to].extend(passed)
            self.waterfall = None
        else:
            w["next"], w["left"] = to, list(passed)

    def on_pile_killed(self, version, p):
        """fifths_disease (§6): the five of diamonds kills a pile of two or more cards,
        before the turn, once in it; the player keeps a card to throw."""
        r = self._round(version, "pile_killed.v1")
        r["slap"] = None  # a kill begins the next turn
        seat = self._seat(r, p["seat"])
        self._no_waterfall_going(version, "pile killed")
        pile = r["piles"].get(p["size"])
        if "fifths_disease" not in self.rules.get("bonus_rules", []) or r["killed"]:
            self.fail(version, "unexpected_event", "a pile killed without the rule, or twice in a turn")
            return
        if seat != r["turn"]:
            self.fail(version, "not_your_turn", "seat %d kills a pile; it is seat %d's turn"
                      % (seat, r["turn"]))
            return
        if p["size"] < 2 or pile is None or pile["dead"]:
            self.fail(version, "pile_kill_not_allowed",
                      "no live pile of %r-card throws to kill" % (p["size"],))
            return
        if len(r["hands"][seat]) < 2:
            self.fail(version, "pile_kill_not_allowed", "the five of diamonds is seat %d's last card" % seat)
        self._remove_from_hand(version, r, seat, "5D")
        pile["below"].update(pile["top"])
        pile["top"], pile["dead"] = ["5D"], True
        r["killed"] = True
        self.v.checked["piles_killed"] += 1

    def on_forced_to_draw(self, version, p):
        r = self._round(version, "forced_to_draw.v1")
        seat = self._seat(r, p["seat"])
        if not self.forced_due:
            self.fail(version, "unexpected_event",
                      "seat %r forced to draw, but no seven thrown owes a draw" % (seat,))
            return
        if self.forced_due[0] != seat:
            # the draw is owed, by another seat: another follow-up than the one derived
            self.fail(version, "event_mismatch",
                      "seat %r forced to draw; the sevens thrown owe %r"
                      % (seat, self.forced_due[0]))
            return
        self.forced_due.pop(0)
        c = self._take_from_stock(version, r, seat, p["card"])
        self.v.checked["forced_draws"] += 1
        r["hands"][seat].append(c)
        self._expect_after_draw(r)

    def on_hands_shown(self, version, p):
        r = self._round(version, "hands_shown.v1")
        to, self.spy_due = self.spy_due, None
        if to is None or p["to"] != to:
            self.fail(version, "unexpected_event",
                      "hands shown to %r without a queen of diamonds under spy" % (p["to"],))
            return
        for s, hand in enumerate(r["hands"]):
            want = None if s == to or hand is None else Counter(hand)
            got = p["hands"][s] if s < len(p["hands"]) else None
            if want != (None if got is None else Counter(got)):
                self.fail(version, "event_mismatch",
                          "seat %d's hand shown as %s, it holds %s" % (s, got, hand))
                return
        self.v.checked["hands_shown"] += 1
        if self.empty_due is not None:
            seat, self.empty_due = self.empty_due, None
            self._check_empty_hand(version, r, seat)

    def on_stock_reshuffled(self, version, p):
        r = self._round(version, "stock_reshuffled.v1")
        self.v.checked["reshuffles"] += 1
        below = sorted(live_below(r), key=card_code)
        if len(r["stock"]) != 0 or not below:
            self.fail(version, "unexpected_reshuffle",
                      "reshuffle while the stock holds %d cards and the pile below %d"
                      % (len(r["stock"]), len(below)))
        if p["reshuffle"] != r["reshuffles"] + 1:
            self.fail(version, "reshuffle_number", "reshuffle %r, expected %d"
                      % (p["reshuffle"], r["reshuffles"] + 1))
        r["reshuffles"] += 1
        if p["cards"] != len(below):
            self.fail(version, "reshuffle_count", "cards %r, the pile below the top has %d"
                      % (p["cards"], len(below)))
        if r["seeded"]:
            r["stock"] = r["stock"] + shuffle(below, r["seed"], r["reshuffles"])
        else:
            r["stock"] = r["stock"] + Counter(below)
        for pile in r["piles"].values():
            if not pile["dead"]:
                pile["below"] = Counter()
        self._expect_after_draw(r)

    def _check_empty_hand(self, version, r, seat):
        if not r["hands"][seat] and self.rules.get("round_ends_on_empty_hand"):
            r["empty"] = seat
            self.expect = ({"round_ended.v1"}, "seat %d's hand is empty (§10.3)" % seat)

    def _no_waterfall_going(self, version, etype):
        if self.waterfall is not None:
            self.fail(version, "unexpected_event", "a %s while a waterfall goes round" % etype)

    def _laid_on(self, version, r, cards, slap):
        """The pile a slap-down or an add-on goes on: the latest throw's, or under
        osmosis the one §6.1 picks."""
        if not self.osmosis:
            top = r["piles"][r["latest"]]["top"]
            fits = slap_fits(top, cards[0], self.rules) if slap else \
                add_on_fits(top, list(cards), self.rules)
            if not fits:
                why = "%s does not fit the top throw %s (§6.1)" % (" ".join(cards), " ".join(top))
                self.fail(version, "slap_not_allowed" if slap else "add_on_not_allowed", why)
            return r["latest"]
        size = osmosis_lay_pile(r["piles"], r["latest"], list(cards), slap, self.rules)
        if size is None:
            why = "%s fits no live pile's top throw (§6.1)" % (" ".join(cards),)
            if slap:
                self.fail(version, "slap_not_allowed", why)
            else:
                self.fail(version, "add_on_not_allowed", why)
            return r["latest"]
        return size

    def on_slapped_down(self, version, p):
        r = self._round(version, "slapped_down.v1")
        self._seat(r, p["seat"])
        self._no_waterfall_going(version, "slap-down")
        # §6: only the thrower slaps down, only the card its turn just drew, once.
        if r["slap"] != (p["seat"], p["card"]):
            self.fail(version, "slap_not_allowed",
                      "seat %r slaps down %s; the card that may be slapped is %s"
                      % (p["seat"], p["card"],
                         "seat %d's %s" % r["slap"] if r["slap"] else "none"))
        r["slap"] = None
        self._remove_from_hand(version, r, p["seat"], p["card"])
        r["piles"][self._laid_on(version, r, [p["card"]], True)]["top"].append(p["card"])
        if self.slap_downs_play:
            # §6: a slapped card is a play; its effects follow it, then the empty hand.
            # Only a slapped nine moves the turn (from the slapper, the other way round).
            if "southern_hemisphere" in self.rules.get("bonus_rules", []) and \
                    p["card"] != "JK" and parse_card(p["card"])[0] == 9:
                self._pass_the_turn(r, p["seat"], [p["card"]])
            self._owe_played_card_effects(r, p["seat"], [p["card"]], list(r["hands"][p["seat"]]))
            self.empty_due = p["seat"]
            self._expect_after_draw(r)
        else:
            self._check_empty_hand(version, r, p["seat"])

    def on_added_on(self, version, p):
        r = self._round(version, "added_on.v1")
        self._seat(r, p["seat"])
        self._no_waterfall_going(version, "add-on")
        # §6.1: the cards are the seat's before they are fitted to a pile
        held = list(r["hands"][p["seat"]])
        for c in p["cards"]:
            self._remove_from_hand(version, r, p["seat"], c)
        r["hands"][p["seat"]] = held
        pile = r["piles"][self._laid_on(version, r, p["cards"], False)]
        for c in p["cards"]:
            swap_remove(r["hands"][p["seat"]], c)
            pile["top"].append(c)
        self._check_empty_hand(version, r, p["seat"])

    def on_called(self, version, p):
        r = self._round(version, "called.v1")
        self._seat(r, p["seat"])
        self._no_waterfall_going(version, "call")
        if r["call"] is not None:
            self.fail(version, "second_call", "a second call in round %d" % r["no"])
        r["killed"] = False  # the next player's turn begins (fifths_disease, §6)
        c = p["seat"]
        hand = r["hands"][c]
        if hand is None:
            raise ValueError("caller %r is not in the round" % (c,))
        plain = sum(card_value(x, self.rules) for x in hand)
        if plain == 41 and "wormhole" in self.rules.get("bonus_rules", []):
            plain = 0   # §10.2: a wormhole's 41 calls as 0
        thr = self.rules.get("call_threshold")
        res = self.rules["call_resolution"]
        rkind = next(iter(res)) if isinstance(res, dict) else res
        if hand and thr is not None and plain > thr:
            kind = "false_call"
            if self.rules.get("over_threshold_call") == "refused":
                self.fail(version, "refused_call",
                          "seat %d calls with %d above the threshold %d under 'refused'"
                          % (c, plain, thr))
        else:
            kind = rkind
            if (p.get("call") == "kluft") != (rkind == "kluft"):
                self.fail(version, "unverifiable_call_kind",
                          "call %r under call_resolution %r" % (p.get("call"), rkind),
                          "unverifiable")
        r["call"] = (kind, c, version)
        if kind == "kluft":
            r["slap"] = None  # §6: nothing is laid while a Kluft call is answered
        if kind in ("false_call", "immediate"):
            self.expect = ({"round_ended.v1"}, "a %s call ends the round at once" % kind)
        # go_along / kluft: declarations in turn from the caller's left
        n = len(self.players)
        r["declare_order"] = [(c + i) % n for i in range(1, n) if r["hands"][(c + i) % n] is not None]

    def _declaration(self, version, p, which, key, store):
        r = self._round(version, which)
        call = r["call"]
        want_kind = "go_along" if which == "went_along.v1" else "kluft"
        if call is None or call[0] != want_kind:
            self.fail(version, "unexpected_declaration", "%s without a %s call" % (which, want_kind))
            return
        done = r["declared"]
        order = r["declare_order"]
        if len(done) >= len(order) or order[len(done)] != p["seat"]:
            self.fail(version, "declaration_order", "%s by seat %r; expected %r"
                      % (which, p["seat"], order[len(done)] if len(done) < len(order) else None))
        done.append(p["seat"])
        r["slap"] = None  # §6: the first declaration closes the slap-down
        r[store][p["seat"]] = bool(p[key])
        if len(done) == len(order):
            self.expect = ({"round_ended.v1"}, "the last declaration ends the round")

    def on_went_along(self, version, p):
        self._declaration(version, p, "went_along.v1", "going", "going")

    def on_onderkluft_declared(self, version, p):
        self._declaration(version, p, "onderkluft_declared.v1", "challenged", "challengers")

    def on_round_ended(self, version, p):
        r = self._round(version, "round_ended.v1")
        r["ended"] = True
        n = len(self.players)
        rules = self.rules
        if p["round"] != r["no"]:
            self.fail(version, "round_number", "round_ended.v1 for round %r during round %d"
                      % (p["round"], r["no"]))
        in_round = [h is not None for h in r["hands"]]
        # ending (§10.3)
        if r["empty"] is not None:
            ending = ("empty_hand", r["empty"], None)
        elif r["call"] is not None:
            kind, c, _ = r["call"]
            if kind in ("go_along", "kluft"):
                if len(r["declared"]) != len(r["declare_order"]):
                    self.fail(version, "declarations_missing",
                              "%d of %d declarations before the end of the round"
                              % (len(r["declared"]), len(r["declare_order"])))
                store = r["going"] if kind == "go_along" else r["challengers"]
                ending = (kind, c, {s for s, yes in store.items() if yes})
            else:
                ending = (kind, c, None)
        else:
            self.fail(version, "no_ending", "round_ended.v1 without a call or an empty hand")
            self.round = None
            return
        # hands at the end (§6): multiset comparison, and the swap-remove order (§23.3)
        stored_hands = p["hands"]
        for s in range(n):
            mine = r["hands"][s]
            theirs = stored_hands[s] if s < len(stored_hands) else None
            if (mine is None) != (theirs is None) or \
                    (mine is not None and Counter(mine) != Counter(theirs)):
                self.fail(version, "event_mismatch",
                          "seat %d ends with %s, round_ended.v1 says %s" % (s, mine, theirs))
            elif mine is not None and mine != theirs:
                self.v.checked["hand_order_differences"] += 1
                self.v.notes.append("%s v%d: seat %d hand order %s vs stored %s (multiset equal)"
                                    % (self.sid, version, s, mine, theirs))
        # shown totals (§10.2)
        jc = rules.get("joker_value_when_caught")
        bonus = rules.get("bonus_rules", [])
        has_caller = ending[0] != "empty_hand"
        h = [None] * n
        for s in range(n):
            if r["hands"][s] is None:
                continue
            tot = 0
            not_caller = not has_caller or s != ending[1]
            for x in r["hands"][s]:
                if x == "JK" and has_caller and jc is not None and s != ending[1]:
                    tot += jc
                elif x == "2S" and "landmine" in bonus and not_caller:
                    tot += 20
                else:
                    tot += card_value(x, rules)
            if tot == 41 and "wormhole" in bonus:
                tot = 0
            h[s] = tot
        exp = score_round(rules, n, in_round, self.totals, ending, h, r["dealer"],
                          self.successful_calls)
        self.v.checked["rounds_scored"] += 1
        for field in ("outcome", "caller", "winner", "hand_totals", "points", "totals",
                      "reductions", "bonuses", "eliminated", "next_dealer", "next_starter"):
            if p.get(field) != exp[field]:
                self.fail(version, "event_mismatch",
                          "round %d %s: stored %s, re-derived %s"
                          % (r["no"], field, json.dumps(p.get(field)), json.dumps(exp[field])))
        # carry the stored values forward (§10 inputs come from the events)
        self.totals = list(p["totals"])
        for s in p["eliminated"]:
            if 0 <= s < n:
                self.in_game[s] = False
                self.eliminated_round[s] = r["no"]
        if p["outcome"] in ("yaniv", "kluft") and p.get("caller") is not None:
            self.successful_calls[p["caller"]] += 1
        self.round = None
        if exp["game_over"] or p.get("next_starter") is None:
            self.last_end = None
            self.expect = ({"game_finished.v1"}, "the game is over")
            self.pending_finish = True
        else:
            self.last_end = (r["no"] + 1, p["next_starter"], p["next_dealer"])

    def on_game_finished(self, version, p):
        if not self.pending_finish:
            self.fail(version, "unexpected_game_finished", "game_finished.v1 while the game goes on")
        exp = game_standings(self.rules, self.totals, self.eliminated_round)
        self.v.checked["games_finished"] += 1
        if p["standings"] != exp:
            self.fail(version, "game_result_mismatch", "standings %s, re-derived %s"
                      % (json.dumps(p["standings"]), json.dumps(exp)))
        self.finished = {"version": version, "standings": p["standings"]}
        self.pending_finish = False


# ---------------------------------------------------------------------------
# tournament stream
# ---------------------------------------------------------------------------

def table_points(result):
    """§15: per line (points, difference, win) in 840ths."""
    n = len(result)
    tot = sum(l["total"] for l in result)
    out = []
    for l in result:
        place = l["place"]
        tied = sum(1 for m in result if m["place"] == place)
        if n < 2 or place == 0 or place + tied - 1 > n:
            pts = 0
        else:
            pts = 42000 * (2 * (n - place) - (tied - 1)) // (n - 1)
        diff = (840 // n) * (n * l["total"] - tot) if n else 0
        out.append((pts, diff, 1 if place == 1 else 0))
    return out


def balanced(n, lo, hi):
    if n == 0 or lo == 0 or lo > hi:
        return None
    t = -(-n // hi)
    if t * lo > n:
        return None
    return [n // t + 1] * (n % t) + [n // t] * (t - n % t)


def table_sizes(n, lo, hi, hard_max):
    for m in range(hi, max(hard_max, hi) + 1):
        b = balanced(n, lo, m)
        if b is not None:
            return b
    return None


def knockout_cut(n, size, cut):
    """§13.6: how many of the n ranked qualifiers enter the first knockout stage."""
    if cut == "better_half":
        half = n // 2
        rounded = (half // size) * size
        return rounded if rounded >= 2 else min(max(half, 2), n)
    if isinstance(cut, dict) and "top" in cut:
        return min(cut["top"], n)
    raise ValueError("unknown knockout_cut %r" % (cut,))


def knockout_tables(n, size):
    """§13.6 (not a final table): (bye seed positions, seed positions per table)."""
    t, b = n // size, n % size
    if t == 0:
        raise ValueError("%d entrants make no table of %d" % (n, size))
    groups = [[] for _ in range(t)]
    for i in range(n - b):
        k = i % t if (i // t) % 2 == 0 else t - 1 - (i % t)
        groups[k].append(b + i)
    return list(range(b)), groups


NEAR, FAR = 2, 8
SWAP_BUDGET, REGION, REGION_NODES, REPAIR_NODES = 2_000_000, 3, 20_000, 5_000_000


def seeded_tables(order, sizes):
    """§13 round 1 under seeding "rating" or "season": `order` (best first) dealt to tables of
    `sizes` in snake order, tables 1..t then t..1 and again, passing a full table."""
    tables = [[] for _ in sizes]
    rest = list(order)
    forward = True
    while rest:
        placed = False
        for j in range(len(sizes)):
            k = j if forward else len(sizes) - 1 - j
            if len(tables[k]) < sizes[k] and rest:
                tables[k].append(rest.pop(0))
                placed = True
        if not placed:
            break
        forward = not forward
    return tables


def _whole(x):
    # JSON true/false read as Python bools, which are ints: a scale of [true] is no scale.
    return isinstance(x, int) and not isinstance(x, bool)


def season_scale_problem(points, best):
    """docs/seasons.md §1: what is wrong with a season's `points` and `best`, or None.
    Shared with seasons.py so that --points and a recorded seeding obey one rule."""
    if not isinstance(points, list) or not 1 <= len(points) <= 64:
        return "points must list 1 to 64 places"
    for k, x in enumerate(points):
        if not _whole(x) or not 0 <= x <= 1_000_000:
            return "points[%d] = %r is not a whole number from 0 to 1000000" % (k, x)
        if k and x > points[k - 1]:
            return "points rise from place %d to place %d" % (k, k + 1)
    if best is not None and (not _whole(best) or not 1 <= best <= 100):
        return "best = %r is not 1 to 100 (or absent for all)" % (best,)
    return None


def swiss_tables(ranked, sizes, met):
    """§13.5 greedy + improve + repair.  met(a, b) -> int."""
    rank = {p: i for i, p in enumerate(ranked)}

    def with_table(p, T, skip):
        return sum(met(p, q) for i, q in enumerate(T) if i != skip and q != p)

    def cost(T):
        return sum(met(T[i], T[j]) for i in range(len(T)) for j in range(i + 1, len(T)))

    pool = list(ranked)
    tables = []
    for size in sizes:
        T = [pool.pop(0)]
        while len(T) < size:
            near, far = min(NEAR * size, len(pool)), min(FAR * size, len(pool))
            best = (float("inf"), 0)
            pick = None
            for i in range(far):
                m = with_table(pool[i], T, None)
                if m == 0:
                    pick = i
                    break
                if i < near and m < best[0]:
                    best = (m, i)
            if pick is None:
                pick = best[1]
            T.append(pool.pop(pick))
        tables.append(T)

    # improve
    budget = [SWAP_BUDGET]
    count = len(tables)
    c = [cost(T) for T in tables]
    reach = 1

    def best_exchange(a, i):
        p = tables[a][i]
        here = with_table(p, tables[a], i)
        if here == 0:
            return None
        best = None
        for d in range(1, reach + 1):
            bs = [b for b in (a - d, a + d) if 0 <= b < count]
            for b in bs:
                for j, q in enumerate(tables[b]):
                    budget[0] = max(budget[0] - 1, 0)
                    before = here + with_table(q, tables[b], j)
                    after = with_table(q, tables[a], i) + with_table(p, tables[b], j)
                    gain = after - before
                    if gain < 0:
                        dist = abs(rank[p] - rank[q])
                        if best is None or (gain, dist) < (best[0], best[1]):
                            best = (gain, dist, b, j)
            if best is not None or budget[0] == 0:
                break
        return None if best is None else (best[2], best[3])

    while any(x > 0 for x in c) and budget[0] > 0:
        improved = False
        for a in range(count):
            i = 0
            while c[a] > 0 and i < len(tables[a]) and budget[0] > 0:
                found = best_exchange(a, i)
                if found is not None:
                    b, j = found
                    tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                    c[a] = cost(tables[a]); c[b] = cost(tables[b]); improved = True
                i += 1
        if not improved:
            if reach >= count:
                break
            reach = min(reach * 4, count)

    # repair
    rbudget = REPAIR_NODES
    for a in range(count):
        if rbudget == 0:
            break
        if cost(tables[a]) == 0:
            continue
        first = min(max(a - 1, 0), max(count - REGION, 0))
        region = list(range(first, min(first + REGION, count)))
        players = sorted([p for k in region for p in tables[k]], key=lambda p: rank[p])
        sizes_r = [len(tables[k]) for k in region]
        st = {"best": sum(cost(tables[k]) for k in region), "found": None,
              "nodes": min(REGION_NODES, rbudget)}
        start = st["nodes"]
        seats = [[] for _ in region]

        def go(i, cst):
            if cst >= st["best"] or st["nodes"] == 0:
                return
            st["nodes"] -= 1
            if i == len(players):
                st["best"] = cst
                st["found"] = [list(s) for s in seats]
                return
            p = players[i]
            tried = []
            for x in range(len(seats)):
                if len(seats[x]) == sizes_r[x]:
                    continue
                if not seats[x]:
                    if sizes_r[x] in tried:
                        continue
                    tried.append(sizes_r[x])
                added = with_table(p, seats[x], None)
                seats[x].append(p)
                go(i + 1, cst + added)
                seats[x].pop()
                if st["best"] == 0:
                    return
        go(0, 0)
        rbudget -= start - st["nodes"]
        if st["found"] is not None:
            for x, k in enumerate(region):
                tables[k] = st["found"][x]
    return tables


class TournamentChecker:
    def __init__(self, v, sid):
        self.v = v
        self.sid = sid
        self.rules = None
        self.config = None
        self.referees = set()
        self.organizer = None
        self.players = []           # dicts, by index
        self.by_account = {}
        self.pending = None
        self.stages = []            # {"kind", "entrants", "rounds": [round]}
        self.disputes = set()
        self.disputes_open = 0
        self.finished = None
        self.opened_games = set()

    def fail(self, version, code, reason, kind="wrong"):
        self.v.fail("tournament", self.sid, version, code, reason, kind)

    def final_begun(self):
        for st in self.stages:
            for rnd in st["rounds"]:
                if rnd["final"] and any(tb["started"] or tb["result"] is not None
                                        for tb in rnd["tables"]):
                    return True
        return False

    def end_of_append(self, version):
        """§8.2: at the end of every write, a commitment is pending whenever a draw is
        still possible (tournament exists, not finished, final not drawn or not begun)."""
        self.v.checked["appends_checked"] += 1
        if self.rules is None or self.finished is not None or self.pending is not None:
            return
        if self.final_begun():
            return
        self.fail(version, "missing_commitment",
                  "no draw commitment is pending at the end of this write (§8.2)")

    def run(self):
        events = self.v.payloads.get(self.sid, {})
        rows = {r.get("version"): r for r in self.v.streams[self.sid] if isinstance(r, dict)}
        versions = sorted(events)
        for n, version in enumerate(versions):
            etype, p = events[version]
            # appends are told apart by their shared recorded_at (§19.1)
            nxt = versions[n + 1] if n + 1 < len(versions) else None
            last_of_append = nxt is None or \
                rows[nxt].get("recorded_at_micros") != rows[version].get("recorded_at_micros")
            try:
                self.handle(version, etype, p)
            finally:
                if last_of_append:
                    self.end_of_append(version)
        self.check_layout()
        self.check_no_missing_result()

    def check_no_missing_result(self):
        """§14.3: an online game in force that is over has its table's result; the
        finding is at the first version past the stream's end."""
        for st in self.stages:
            for rnd in st["rounds"]:
                for tb in rnd["tables"]:
                    game = tb.get("game")
                    if not game or not tb.get("started") or tb.get("result") is not None:
                        continue
                    g = self.v.games.get(game)
                    if g is not None and g["finished"] is not None:
                        end = self.v.stream_length(self.sid)
                        self.fail(end + 1, "missing_result",
                                  "the online game %s (opened at version %d) is over, but the "
                                  "stream ends at version %d without its result"
                                  % (game, tb["game_started_version"], end))

    def handle(self, version, etype, p):
        if True:
            if p is None:
                return
            if etype not in TOURNAMENT_EVENTS:
                self.fail(version, "unverifiable_event_type",
                          "event type %s is not implemented" % etype, "unverifiable")
                return
            try:
                getattr(self, "on_" + etype[:-3])(version, p)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
                self.fail(version, "malformed_event", "%s cannot be checked: %r" % (etype, e))

    def check_layout(self):
        # §1.3: the other streams are exactly the games the tournament opened, by table id
        opened = {tb["game"] for st in self.stages for rnd in st["rounds"] for tb in rnd["tables"]
                  if tb.get("game")} | self.opened_games
        others = [s for s in self.v.stream_order if s != self.sid]
        for s in others:
            if s not in opened:
                self.fail(0, "archive_layout", "stream %s was not opened by the tournament" % s)
        ids = [int(s.split("-", 1)[1]) if s.split("-", 1)[-1].isdigit() else -1 for s in others]
        if ids != sorted(ids):
            self.fail(0, "archive_layout", "game streams are not in table id order")

    # -- helpers ------------------------------------------------------------
    def idx(self, account):
        return self.by_account[account]

    def active(self, i):
        pl = self.players[i]
        return not pl["withdrawn"] and not pl["disqualified"]

    def cfg(self, key, default=None):
        return self.config.get(key, default)

    def find_table(self, t):
        s, r, k = t["stage"], t["round"], t["table"]
        if not (isinstance(s, int) and isinstance(r, int) and isinstance(k, int)) \
                or not (1 <= s <= len(self.stages)) or not (1 <= r <= len(self.stages[s - 1]["rounds"])) \
                or not (1 <= k <= len(self.stages[s - 1]["rounds"][r - 1]["tables"])):
            raise ValueError("no drawn table %r" % (t,))
        return self.stages[s - 1]["rounds"][r - 1]["tables"][k - 1]

    def hard_max(self):
        return min(self.rules["max_players"], 8)

    def fewest(self):
        return max(self.rules["min_players"], 2)

    # -- §16 standings ------------------------------------------------------
    def entry_order(self, i):
        """§16: the registration order, or under a recorded seeding (by rating or by
        season) the place in its order (from 1), players not in it after all who are."""
        places = self.stages[0]["seed_places"] if self.stages else {}
        if not places:
            return self.players[i]["order"]
        return places.get(i, len(places) + self.players[i]["order"])

    def records(self, ranked_indices, before_round=None):
        recs = {i: {"games": 0, "table_points": 0, "wins": 0, "score_difference": 0,
                    "absences": 0, "registration": self.entry_order(i)}
                for i in ranked_indices}
        if not self.stages:
            return recs
        q = self.stages[0]
        absent = self.cfg("absent_scoring") or {"kind": "last_place"}
        for rnd in q["rounds"]:
            if before_round is not None and rnd["no"] >= before_round:
                continue
            worst = None
            for tb in rnd["tables"]:
                if tb["result"] is None:
                    continue
                for line, (pts, diff, win) in zip(tb["result"], table_points(tb["result"])):
                    worst = diff if worst is None else max(worst, diff)
                    i = self.by_account.get(line["player"])
                    if i in recs:
                        recs[i]["games"] += 1
                        recs[i]["wins"] += win
                        recs[i]["table_points"] += pts
                        recs[i]["score_difference"] += diff
            missed = set()
            for tb in rnd["tables"]:
                missed |= {self.by_account[a] for a in tb["no_shows"]}
            for i, pl in enumerate(self.players):
                if pl.get("first_round") is not None and pl["first_round"] > rnd["no"]:
                    missed.add(i)
            for i in sorted(missed):
                if i not in recs:
                    continue
                recs[i]["games"] += 1
                recs[i]["absences"] += 1
                if absent.get("kind") == "fixed":
                    recs[i]["table_points"] += 840 * absent["table_points"]
                    recs[i]["score_difference"] += 840 * absent.get("score_difference", 0)
                else:
                    recs[i]["score_difference"] += worst if worst is not None else 0
        return recs

    def compare_key(self, rec):
        key = []
        for crit in self.cfg("tie_breaks") or DEFAULT_TIE_BREAKS:
            if crit == "table_points":
                key.append(-rec["table_points"])
            elif crit == "game_wins":
                key.append(-rec["wins"])
            elif crit == "score_difference":
                key.append(rec["score_difference"])
            elif crit == "registration_order":
                key.append(rec["registration"])
            else:
                raise ValueError("unknown tie break %r" % (crit,))
        return tuple(key)

    def seeding_order(self, indices, before_round=None):
        recs = self.records(indices, before_round)
        order = sorted(indices, key=lambda i: (self.compare_key(recs[i]), recs[i]["registration"],
                                               self.players[i]["account"]))
        return order, recs

    def published_standings(self):
        entrants = [i for i in (self.stages[0]["entrants"] if self.stages else [])
                    if not self.players[i]["disqualified"]]
        order, recs = self.seeding_order(entrants)
        rows = []
        for n, i in enumerate(order):
            if rows and self.compare_key(recs[i]) == self.compare_key(recs[rows[-1][0]]):
                place = rows[-1][1]
            else:
                place = n + 1
            rows.append((i, place))
        return rows, recs

    # -- events -------------------------------------------------------------
    def on_tournament_created(self, version, p):
        self.rules = p["effective_rules"]
        self.config = p["config"]
        self.organizer = p.get("organizer")

    def on_stages_configured(self, version, p):
        if self.stages:
            self.fail(version, "stages_configured_late", "stages configured after the qualification started")
        self.config = p["config"]

    def on_registration_opened(self, version, p):
        pass

    def on_referee_added(self, version, p):
        self.referees.add(p["referee"])

    def on_referee_removed(self, version, p):
        self.referees.discard(p["referee"])

    def on_registration_closed(self, version, p):
        pass

    def _add_player(self, version, account, order):
        if account in self.by_account:
            return self.by_account[account]
        i = len(self.players)
        if order != i + 1:
            self.fail(version, "player_order", "player %r has order %r, expected %d"
                      % (account, order, i + 1))
        self.players.append({"account": account, "order": i + 1, "checked_in": False,
                             "withdrawn": False, "disqualified": False, "first_round": None})
        self.by_account[account] = i
        return i

    def on_player_registered(self, version, p):
        if p["player"] in self.by_account:
            self.fail(version, "player_twice", "player %r registered twice" % p["player"])
            return
        self._add_player(version, p["player"], p["order"])

    def on_player_entered_late(self, version, p):
        i = self._add_player(version, p["player"], p["order"])
        if p["order"] != self.players[i]["order"]:
            self.fail(version, "player_order", "order %r, expected %d" % (p["order"], self.players[i]["order"]))
        pl = self.players[i]
        pl["checked_in"] = True
        pl["first_round"] = p["first_round"]
        if self.stages:
            ent = self.stages[0]["entrants"]
            if i not in ent:
                ent.append(i)
                ent.sort()

    def on_player_checked_in(self, version, p):
        self.players[self.idx(p["player"])]["checked_in"] = True

    def on_player_check_in_undone(self, version, p):
        self.players[self.idx(p["player"])]["checked_in"] = False

    # What the venue's projector shows: no verified fact depends on it.
    def on_round_clock_set(self, version, p):
        pass

    def on_announcement_made(self, version, p):
        pass

    def on_player_withdrew(self, version, p):
        self.players[self.idx(p["player"])]["withdrawn"] = True

    def on_player_disqualified(self, version, p):
        self.players[self.idx(p["player"])]["disqualified"] = True

    def on_draw_seed_committed(self, version, p):
        if self.final_begun():
            self.fail(version, "commitment_after_final", "a commitment after the final began (§8.2)")
        if self.pending is not None:
            self.fail(version, "commitment_while_pending", "a draw commitment is already pending (§8.2)")
        if decode_hex32(p["commitment"]) is None:
            self.fail(version, "malformed_commitment", "commitment %r" % p["commitment"])
        self.pending = p["commitment"]

    def on_dispute_opened(self, version, p):
        self.disputes_open += 1

    def on_dispute_resolved(self, version, p):
        self.disputes_open = max(0, self.disputes_open - 1)

    def on_stage_started(self, version, p):
        no = len(self.stages) + 1
        if p["stage"] != no:
            self.fail(version, "stage_number", "stage %r, expected %d" % (p["stage"], no))
        kind = "qualification" if no == 1 else "knockout"
        if p["kind"] != kind:
            self.fail(version, "stage_kind", "stage %d is %r, expected %r" % (no, p["kind"], kind))
        if no == 1:
            dropped = [pl["account"] for i, pl in enumerate(self.players)
                       if self.active(i) and not pl["checked_in"]]
            entrants = [i for i, pl in enumerate(self.players) if pl["checked_in"] and self.active(i)]
        else:
            dropped, entrants = [], []
        if p["dropped"] != dropped:
            self.fail(version, "dropped_mismatch", "dropped %s, expected %s" % (p["dropped"], dropped))
        seed_order = []
        seeding = p.get("seeding")
        mode = self.cfg("seeding", "random")
        wants = SEEDING_PROCEDURES.get(mode) if no == 1 else None
        # The config first: a seeding cannot be judged against a season id it lacks.
        problem = self.config_season_problem(mode) if no == 1 else None
        if problem is None and (wants is not None) != (seeding is not None):
            problem = "a seeding %s under seeding %r at stage %d" \
                % ("recorded" if seeding else "missing", mode, no)
        elif problem is None and seeding is not None:
            problem = self.seeding_problem(seeding, wants, entrants)
        if problem is not None:
            self.fail(version, "bad_seeding", problem)
        elif seeding is not None:
            seed_order = [self.idx(a) for a in seeding["order"]]
        self.stages.append({"kind": kind, "entrants": entrants, "rounds": [], "seeds": None,
                            "seed_order": seed_order,
                            "seed_places": {i: k + 1 for k, i in enumerate(seed_order)}})

    def config_season_problem(self, mode):
        """§12 stored config: `season` (an integer) is there exactly when `seeding` is
        "season"; checked where the seeding it names is used, at stage 1's start."""
        has = "season" in self.config
        if mode == "season" and not (has and _whole(self.config["season"])):
            return "config seeding \"season\" without an integer season: %r" \
                % (self.config.get("season"),)
        if mode != "season" and has:
            return "config names season %r under seeding %r" % (self.config["season"], mode)
        return None

    def seeding_problem(self, seeding, wants, entrants):
        """§12: what is wrong with a recorded stage-1 seeding, or None. Both procedures
        list every entrant once; yaniv-season/1 also carries the season it was read
        from, and only it does."""
        if not isinstance(seeding, dict) or not isinstance(seeding.get("order"), list):
            return "the seeding has no order"
        procedure = seeding.get("procedure")
        if procedure != wants:
            return "the seeding names procedure %r where the config asks for %r" % (procedure, wants)
        listed = sorted(seeding["order"], key=repr)
        if listed != sorted((self.players[i]["account"] for i in entrants), key=repr) or \
                len(set(map(repr, listed))) != len(listed):
            return "the seeding does not list every entrant once under %s" % procedure
        if procedure != "yaniv-season/1":
            if "season" in seeding:
                return "a season in a seeding under %s" % procedure
            return None
        season = seeding.get("season")
        if not isinstance(season, dict):
            return "a seeding under yaniv-season/1 without its season"
        if not _whole(season.get("season")) or season.get("season") != self.config.get("season"):
            return "the seeding is of season %r, the config's is %r" \
                % (season.get("season"), self.config.get("season"))
        scale = season_scale_problem(season.get("points"), season.get("best"))
        if scale is not None:
            return "the seeding's season: " + scale
        members = season.get("tournaments")
        if not isinstance(members, list) or len(members) > 100 or \
                not all(_whole(t) for t in members) or len(set(members)) != len(members):
            return "the seeding's tournaments are not at most 100 distinct tournament ids"
        # docs/seasons.md §4: a final is never a member of its own season
        # (final_in_its_season), and the archive alone can see it.
        if int(self.sid.split("-", 1)[1]) in members:
            return "the seeding counts this tournament among its season's members"
        return None

    def _round_complete(self, rnd):
        return all(tb["result"] is not None for tb in rnd["tables"])

    def plan_draw(self, version, p, redraw):
        """§13: returns (seeds, tables, byes, final_table) in accounts or raises ValueError."""
        stage_no = len(self.stages)
        if stage_no == 0:
            raise ValueError("no stage started")
        st = self.stages[-1]
        seed = decode_hex32(p["seed"])
        if seed is None:
            raise ValueError("malformed seed")
        if st["kind"] == "qualification":
            rno = p["round"]
            active = [i for i in st["entrants"] if self.active(i)]
            sizes = table_sizes(len(active), self.cfg("table_min"), self.cfg("table_max"), self.hard_max())
            if sizes is None:
                raise ValueError("no_table_split for %d players" % len(active))
            for rnd in st["rounds"]:
                if rnd["no"] < rno and not self._round_complete(rnd):
                    raise ValueError("qualification round %d is not complete" % rnd["no"])
            seeds_acc = []
            if rno == 1 and st["seed_order"]:
                playing = set(active)
                order = [i for i in st["seed_order"] if i in playing]
                groups = seeded_tables(order, sizes)
                seeds_acc = [self.players[i]["account"] for i in order]
            elif rno == 1:
                shuffled = shuffle(active, seed, 0)
                groups, pos = [], 0
                for s in sizes:
                    groups.append(shuffled[pos:pos + s])
                    pos += s
            else:
                ranked, _ = self.seeding_order(active, before_round=rno)
                meets = Counter()
                for stg in self.stages:
                    for rnd in stg["rounds"]:
                        if stg is st and rnd["no"] >= rno:
                            continue
                        for tb in rnd["tables"]:
                            present = [self.idx(a) for a in tb["players"] if a not in tb["no_shows"]]
                            for x in present:
                                for y in present:
                                    if x != y:
                                        meets[(x, y)] += 1
                self.v.checked["swiss_draws"] += 1
                groups = swiss_tables(ranked, sizes, lambda a, b: meets[(a, b)])
            byes_acc, final = [], False
        else:
            # knockout (§13.6)
            for stg in self.stages[:-1]:
                for rnd in stg["rounds"]:
                    if not self._round_complete(rnd):
                        raise ValueError("an earlier round is not complete")
            size = self.cfg("knockout_table_size")
            if stage_no == 2:
                q = self.stages[0]
                active = [i for i in q["entrants"] if self.active(i)]
                ordered, _ = self.seeding_order(active)
                entrants = ordered[:knockout_cut(len(active), size, self.cfg("knockout_cut"))]
            else:
                prev = self.stages[-2]
                through = set()
                adv = self.cfg("advance_per_table")
                for rnd in prev["rounds"]:
                    through |= set(rnd["byes_idx"])
                    for tb in rnd["tables"]:
                        if tb["result"] is None:
                            continue
                        lines = sorted(tb["result"], key=lambda l: (
                            l["place"], prev["seeds"].index(self.idx(l["player"]))))
                        through |= {self.idx(l["player"]) for l in lines[:adv]}
                entrants = [i for i in prev["seeds"] if i in through and self.active(i)]
            n = len(entrants)
            if n < self.fewest():
                raise ValueError("%d entrants, fewer than %d" % (n, self.fewest()))
            if n <= self.cfg("final_table_max"):
                groups, byes, final = [list(entrants)], [], True
            else:
                bye_pos, pos_groups = knockout_tables(n, size)
                byes = [entrants[i] for i in bye_pos]
                groups = [[entrants[i] for i in g] for g in pos_groups]
                final = False
            seeds_acc = [self.players[i]["account"] for i in entrants]
            byes_acc = [self.players[i]["account"] for i in byes]
        tables = []
        for k, g in enumerate(groups, start=1):
            seated = shuffle(sorted(g), seed, k)
            tables.append([self.players[i]["account"] for i in seated])
        return seeds_acc, tables, byes_acc, final

    def _on_draw(self, version, p, redraw):
        self.v.checked["draws"] += 1
        if p["algorithm"] != DRAW_ALGORITHM:
            self.fail(version, "unknown_draw_algorithm", "draw algorithm %r" % p["algorithm"],
                      "unverifiable")
            return
        if commitment_of(p["seed"]) != str(p["commitment"]).lower():
            self.fail(version, "commitment_mismatch", "SHA-256(seed) = %s, commitment %s"
                      % (commitment_of(p["seed"]), p["commitment"]))
        if self.pending is not None:
            if p["commitment"] != self.pending or p["precommitted"] is not True:
                self.fail(version, "precommitted_mismatch", "pending commitment %s; draw has %s, "
                          "precommitted %r" % (self.pending, p["commitment"], p["precommitted"]))
        elif p["precommitted"] is not False:
            self.fail(version, "precommitted_mismatch", "precommitted %r with no pending commitment"
                      % (p["precommitted"],))
        self.pending = None
        if not self.stages:
            raise ValueError("draw before any stage")
        st = self.stages[-1]
        stage_no = len(self.stages)
        if p["stage"] != stage_no:
            self.fail(version, "wrong_stage", "draw for stage %r, current stage %d" % (p["stage"], stage_no))
        if redraw:
            want_round = len(st["rounds"])
            if want_round == 0:
                self.fail(version, "redraw_nothing", "redraw with no round drawn")
            else:
                rnd = st["rounds"][-1]
                if any(tb["started"] or tb["result"] is not None or tb["voided_ever"] for tb in rnd["tables"]):
                    self.fail(version, "round_started", "the round to redraw has begun (§13.1)")
                # §13.7: a redraw that records the seating it replaced names the one in
                # force, and stays within redraws_per_round.
                by = p.get("by")
                if by is not None:
                    acct = by.get("account") if isinstance(by, dict) else None
                    if not (by == "server" or acct == self.organizer or acct in self.referees):
                        self.fail(version, "forbidden", "the redraw's %r is no official" % (by,))
                    elif acct is not None and acct in self.by_account:
                        self.fail(version, "official_plays",
                                  "the redraw's official %r plays in the tournament" % (acct,))
                replaced = p.get("replaced")
                if replaced is not None:
                    in_force = ([tb["players"] for tb in rnd["tables"]],
                                [self.players[i]["account"] for i in rnd["byes_idx"]])
                    if (replaced.get("tables"), replaced.get("byes")) != in_force:
                        self.fail(version, "replaced_mismatch",
                                  "replaced %s, the seating in force was %s"
                                  % (json.dumps(replaced), json.dumps(in_force)))
                    elif rnd.get("redraws", 0) >= self.cfg("redraws_per_round", 1):
                        self.fail(version, "redraw_limit_reached",
                                  "redraw %d of a round, redraws_per_round %r"
                                  % (rnd.get("redraws", 0) + 1, self.cfg("redraws_per_round", 1)))
        else:
            want_round = len(st["rounds"]) + 1
            limit = self.cfg("qualification_rounds") if st["kind"] == "qualification" else 1
            if want_round > limit:
                self.fail(version, "too_many_rounds", "round %d of a stage with %d" % (want_round, limit))
            if self.disputes_open:
                self.fail(version, "open_dispute", "a dispute is open")
        if p["round"] != want_round:
            self.fail(version, "wrong_round", "round %r, expected %d" % (p["round"], want_round))
        try:
            seeds, tables, byes, final = self.plan_draw(version, p, redraw)
            for field, mine in (("seeds", seeds), ("tables", tables), ("byes", byes),
                                ("final_table", final)):
                if p[field] != mine:
                    self.fail(version, "draw_mismatch", "%s: stored %s, re-derived %s"
                              % (field, json.dumps(p[field]), json.dumps(mine)))
        except ValueError as e:
            self.fail(version, "draw_refused", "the draw should have been refused: %s" % e)
        rnd = {"no": p["round"], "byes_idx": [self.idx(a) for a in p["byes"]],
               "final": bool(p["final_table"]), "version": version,
               "tables": [{"players": list(t), "result": None, "started": False,
                           "voided_ever": False, "no_shows": set(), "game": None,
                           "game_seats": None} for t in p["tables"]]}
        if redraw and st["rounds"]:
            rnd["redraws"] = st["rounds"][-1].get("redraws", 0) + 1
            st["rounds"][-1] = rnd
        else:
            st["rounds"].append(rnd)
        if st["kind"] == "knockout":
            st["seeds"] = [self.idx(a) for a in p["seeds"]]

    def on_round_drawn(self, version, p):
        self._on_draw(version, p, False)

    def on_round_redrawn(self, version, p):
        self._on_draw(version, p, True)

    def on_table_game_started(self, version, p):
        tb = self.find_table(p["table"])
        g = self.v.games.get(p["game"])
        if g is None:
            # §1.3: the archive carries every online game the tournament opened
            self.fail(version, "game_not_found", "the archive has no stream %s" % p["game"])
        else:
            tc = g["table_created"] or {}
            if tc.get("effective_rules") != self.rules:
                # §9.1: each online game's effective rules equal the tournament's
                self.fail(version, "game_rules_mismatch",
                          "%s table_created.effective_rules differ from the tournament's" % p["game"])
        tb["started"] = True
        tb["game"] = p["game"]
        self.opened_games.add(p["game"])
        # expected game seats (§14.3): drawn seat order minus inactive players and no-shows
        tb["game_seats"] = [a for a in tb["players"]
                            if self.active(self.idx(a)) and a not in tb["no_shows"]]
        tb["game_started_version"] = version

    def on_game_voided(self, version, p):
        tb = self.find_table(p["table"])
        tb["result"] = None
        tb["started"] = False
        tb["voided_ever"] = True
        self._check_flagged(version, p)

    def on_no_show_recorded(self, version, p):
        tb = self.find_table(p["table"])
        if p["player"] not in tb["players"]:
            self.fail(version, "not_at_table", "player %r is not drawn at that table" % p["player"])
        tb["no_shows"].add(p["player"])
        self._check_flagged(version, p)

    def _check_flagged(self, version, p):
        """§18, partially: flagged must be empty when no later round has been drawn."""
        t = p["table"]
        key = (t["stage"], t["round"])
        later = any((s + 1, rnd["no"]) > key for s, st in enumerate(self.stages) for rnd in st["rounds"])
        if not later and p.get("flagged") != []:
            self.fail(version, "flags_mismatch", "flagged %s, but no later round is drawn" % p.get("flagged"))
        elif later:
            self.v.checked["flagged_not_rederived"] += 1

    def _result(self, version, p, correction):
        tb = self.find_table(p["table"])
        if correction and tb["result"] is None:
            self.fail(version, "no_result", "no result in force to correct")
        if not correction and tb["result"] is not None:
            self.fail(version, "result_already_recorded", "the table already has a result in force")
        inp = p["input"]
        src = inp.get("source")
        lines = None
        if src == "game":
            if self.cfg("rounds_required") and not inp.get("game") and not tb.get("game"):
                self.fail(version, "rounds_required",
                          "final totals alone at a paper table, where the rounds are required")
            lines = inp["standings"]
            accs = [l["player"] for l in lines]
            if len(set(accs)) != len(accs):
                self.fail(version, "result_players", "a player appears twice")
            for l in lines:
                want = 1 + sum(1 for m in lines if m["place"] < l["place"])
                if l["place"] != want:
                    self.fail(version, "result_places", "player %r has place %r, expected %d"
                              % (l["player"], l["place"], want))
        elif src == "paper_rounds":
            lines = self._score_paper(version, inp)
        else:
            self.fail(version, "unverifiable_result_source", "input source %r needs a game replay (§22)"
                      % (src,), "unverifiable")
        self.v.checked["results"] += 1
        if lines is not None:
            exp = sorted(lines, key=lambda l: l["place"])
            if p["result"] != exp:
                self.fail(version, "result_mismatch", "result %s, re-derived %s"
                          % (json.dumps(p["result"]), json.dumps(exp)))
        res = p["result"]
        # table checks (§14.2)
        for l in res:
            if l["player"] not in tb["players"] or l["player"] in tb["no_shows"]:
                self.fail(version, "result_player", "player %r is not present at the table" % l["player"])
        present_active = [a for a in tb["players"] if a not in tb["no_shows"] and self.active(self.idx(a))]
        for a in present_active:
            if a not in [l["player"] for l in res]:
                self.fail(version, "result_missing_player", "player %r has no line" % a)
        if len(res) < 2:
            self.fail(version, "result_too_short", "fewer than 2 lines")
        # §14.3 online games
        if src == "game" and inp.get("game") is not None:
            self._check_online(version, p, tb, inp["game"])
        tb["result"] = res
        self._check_flagged(version, p)

    def _check_online(self, version, p, tb, game):
        self.v.checked["online_results"] += 1
        g = self.v.games.get(game)
        if g is None:
            self.fail(version, "game_not_found", "the archive has no stream %s" % game)
            return
        tc = g["table_created"] or {}
        want_link = {"tournament_id": self.v.archive.get("tournament_id"), "table": p["table"]}
        if tc.get("tournament") != want_link:
            self.fail(version, "game_not_linked", "%s table_created.tournament is %s, expected %s"
                      % (game, json.dumps(tc.get("tournament")), json.dumps(want_link)))
        if tb.get("game") != game:
            self.fail(version, "game_not_latest", "the table's latest game is %r, result names %s"
                      % (tb.get("game"), game))
        seats = [g["seats"][s] for s in sorted(g["seats"])]
        if tb.get("game_seats") is not None and seats != tb["game_seats"]:
            self.fail(version, "game_seats", "%s seats %s, expected from the draw %s"
                      % (game, seats, tb["game_seats"]))
        if g["finished"] is None:
            self.fail(version, "game_not_over", "%s has no game_finished.v1" % game)
            return
        try:
            mine = sorted((seats[l["seat"]], l["total"], l["place"]) for l in g["finished"]["standings"])
        except IndexError:
            self.fail(version, "game_seats", "%s standings name a seat without an account" % game)
            return
        theirs = sorted((l["player"], l["total"], l["place"]) for l in p["result"])
        if mine != theirs:
            self.fail(version, "online_result_mismatch", "result %s, %s standings give %s"
                      % (theirs, game, mine))

    def _score_paper(self, version, inp):
        seats, rounds = inp["seats"], inp["rounds"]
        rules = self.rules
        n = len(seats)
        totals = [0] * n
        in_game = [True] * n
        elim_round = {}
        calls = [0] * n
        cap = max(10, *[rules["card_values"][k] for k in ("jack", "queen", "king", "king_of_hearts", "joker")]) \
            * rules["hand_size"]
        over = False
        for rno, rd in enumerate(rounds, start=1):
            if over:
                self.fail(version, "paper_after_end", "round %d follows the end of the game" % rno)
                break
            h = rd["hand_totals"]
            if len(h) != n or any((h[s] is None) == in_game[s] for s in range(n)):
                self.fail(version, "paper_hand_totals", "round %d hand_totals %s" % (rno, h))
                return None
            if any(x is not None and not (0 <= x <= cap) for x in h):
                self.fail(version, "paper_hand_totals", "round %d: a total above %d" % (rno, cap))
            e = rd["ending"]
            if e["kind"] == "empty_hand":
                if not rules.get("round_ends_on_empty_hand") or h[e["seat"]] != 0:
                    self.fail(version, "paper_ending", "round %d: empty hand not allowed" % rno)
                ending = ("empty_hand", e["seat"], None)
            else:
                c, decl = e["caller"], e.get("declared", [])
                if not in_game[c] or len(set(decl)) != len(decl) or \
                        any(d == c or not in_game[d] for d in decl):
                    self.fail(version, "paper_ending", "round %d: bad caller or declared" % rno)
                thr = rules.get("call_threshold")
                rk = next(iter(rules["call_resolution"]))
                if thr is not None and h[c] > thr:
                    if rules.get("over_threshold_call") == "refused" or decl:
                        self.fail(version, "paper_ending", "round %d: refused false call" % rno)
                    ending = ("false_call", c, None)
                elif rk == "immediate":
                    if decl:
                        self.fail(version, "paper_ending", "round %d: declared under immediate" % rno)
                    ending = ("immediate", c, None)
                else:
                    ending = (rk, c, set(decl))
            try:
                res = score_round(rules, n, in_game, totals, ending, h, None, calls)
            except ValueError as ex:
                if "dealer" not in str(ex):
                    raise
                # dealer only matters for who starts next: irrelevant on paper
                res = score_round(dict(rules, next_starter="lowest_hand"), n, in_game, totals,
                                  ending, h, None, calls)
            totals = res["totals"]
            for s in res["eliminated"]:
                in_game[s] = False
                elim_round[s] = rno
            if res["outcome"] in ("yaniv", "kluft") and res["caller"] is not None:
                calls[res["caller"]] += 1
            over = res["game_over"]
            self.v.checked["paper_rounds_scored"] += 1
        if not over:
            self.fail(version, "paper_not_over", "the game is not over after the last round")
        st = game_standings(rules, totals, elim_round)
        return [{"player": seats[l["seat"]], "total": l["total"], "place": l["place"]} for l in st]

    def on_result_recorded(self, version, p):
        self._result(version, p, False)

    def on_result_corrected(self, version, p):
        self._result(version, p, True)

    def on_tournament_finished(self, version, p):
        self.v.checked["rankings"] += 1
        ranked = set()
        ranking = []
        place = 0
        for s in range(len(self.stages) - 1, 0, -1):
            st = self.stages[s]
            if not st["rounds"]:
                continue
            rnd = st["rounds"][0]
            places = {}
            for tb in rnd["tables"]:
                for l in tb["result"] or []:
                    places[self.idx(l["player"])] = l["place"]
            seeds = st["seeds"] or []
            cand = [i for i in seeds if i not in ranked and not self.players[i]["disqualified"]]
            cand.sort(key=lambda i: (places.get(i, 255), seeds.index(i)))
            for i in cand:
                place += 1
                pat = places.get(i)
                if rnd["final"] and pat is not None:
                    reached = {"kind": "final", "place_at_table": pat}
                else:
                    reached = {"kind": "knockout", "stage": s + 1, "place_at_table": pat}
                ranking.append({"place": place, "player": self.players[i]["account"],
                                "reached": reached, "withdrawn": self.players[i]["withdrawn"]})
                ranked.add(i)
        k = len(ranking)
        rows, recs = self.published_standings()
        rest = [i for i, _ in rows if i not in ranked]
        prev = None
        for n, i in enumerate(rest, start=1):
            if prev is not None and self.compare_key(recs[i]) == self.compare_key(recs[prev[0]]):
                pl = prev[1]
            else:
                pl = k + n
            ranking.append({"place": pl, "player": self.players[i]["account"],
                            "reached": {"kind": "qualification"},
                            "withdrawn": self.players[i]["withdrawn"]})
            prev = (i, pl)
        disq = [pl["account"] for pl in self.players if pl["disqualified"]]
        if p["ranking"] != ranking:
            self.fail(version, "ranking_mismatch", "ranking %s, re-derived %s"
                      % (json.dumps(p["ranking"]), json.dumps(ranking)))
        if p["disqualified"] != disq:
            self.fail(version, "disqualified_mismatch", "disqualified %s, re-derived %s"
                      % (p["disqualified"], disq))
        # published when the final table has a result (§17)
        last = self.stages[-1]["rounds"][-1] if self.stages and self.stages[-1]["rounds"] else None
        if last is None or not last["final"] or not self._round_complete(last):
            self.fail(version, "finished_early", "tournament finished without a final table result")
        if self.disputes_open:
            self.fail(version, "open_dispute", "a dispute is open")
        self.finished = p


# ---------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------

def verify_document(archive):
    return Verifier(archive).run()


def main(argv=None):
    ap = argparse.ArgumentParser(description="Verify a yaniv-archive/1 document (docs/verification.md).")
    ap.add_argument("archive", help="archive file, or - for stdin")
    args = ap.parse_args(argv)
    try:
        if args.archive == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(args.archive, "rb") as f:
                text = f.read()
        doc = json.loads(text.decode("utf-8"))
        verdict = verify_document(doc)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, Unreadable) as e:
        print(json.dumps({"ok": False, "error": "unreadable input: %s" % e}))
        return 2
    print(json.dumps(verdict, indent=2))
    return 0 if verdict["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
