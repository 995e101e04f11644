"""Self-test of the reference verifier (standard library only).

Run: python3 -m unittest discover -s /work/main/tools/reference-verifier
"""

import copy
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import verify_archive as va  # noqa: E402

FIXTURE = os.path.join(HERE, "cup.yaniv-archive.json")


def load_fixture():
    with open(FIXTURE, "rb") as f:
        return json.loads(f.read().decode("utf-8"))


def stream(doc, sid):
    return next(s for s in doc["streams"] if s["stream_id"] == sid)["events"]


def rechain(events, start_version):
    """Recompute every hash from start_version on, as a forger would."""
    prev = bytes.fromhex(events[start_version - 2]["hash"]) if start_version > 1 else bytes(32)
    for e in events:
        if e["version"] < start_version:
            continue
        e["prev_hash"] = prev.hex()
        h = va.event_hash(e["_sid"], e["version"], e["type"], e["payload"], e["actor"],
                          e["request_id"], e["idempotency_key"], e["recorded_at_micros"], prev)
        e["hash"] = h.hex()
        prev = h


class Vectors(unittest.TestCase):
    def test_chacha20_rfc8439_2_3_2(self):
        words = va.chacha20_block(bytes(range(32)), 1, bytes.fromhex("000000090000004a00000000"))
        self.assertEqual("%08x" % words[0], "e4e7f110")
        self.assertEqual("%08x" % words[15], "4e3c50a2")

    def test_pinned_shuffle(self):
        got = va.shuffle(list(range(54)), bytes(range(32)), 0)
        self.assertEqual(got[:5], [53, 40, 4, 27, 38])
        self.assertEqual(got[-3:], [33, 45, 37])

    def test_commitments(self):
        self.assertEqual(va.commitment_of("01" * 32),
                         "72cd6e8422c407fb6d098690f1130b7ded7ec2f7f5e1d30bd9d521f015363793")

    def test_event_hash(self):
        h = va.event_hash("table-1", 1, "Dealt", '{"n":1}', "account:1", "req", None,
                          1700000000000000, bytes(32))
        self.assertEqual(h.hex(), "9ced10c096c14a1c6b4f618dfc63eee8fa1dfab95c8cd290b07dc36c5c87cecb")

    def test_checkpoint_root(self):
        heads = [("table-1", 9, b"\x01" * 32), ("table-2", 4, b"\x02" * 32),
                 ("tournament-1", 30, b"\x03" * 32)]
        self.assertEqual(va.checkpoint_root(heads).hex(),
                         "7a2fc2af5244ea471fa3c1aeb78bf9d415c2fe237bfa3c3feb963a545f6fc0af")

    def test_reshuffle_example(self):
        below = sorted(["7D", "QS", "JK", "6S", "QH", "7S"], key=va.card_code)
        self.assertEqual(va.shuffle(below, b"\x01" * 32, 1), ["JK", "6S", "7S", "7D", "QS", "QH"])


    def test_player_entropy_mix_and_starter(self):
        # §8.3's vector: server seed 11..11, seat 0 sent 22..22, seat 1 nothing.
        class Game:
            fail = None
        table = {"seats": 2, "bots": [], "player_entropy": True}
        checker = va.EntropyChecker(Game(), table)
        checker.pending = {"round": 1, "seed": bytes([0x11] * 32), "values": {0: bytes([0x22] * 32)}}
        mixed = checker.deal_seed()
        self.assertEqual(mixed.hex(),
                         "199661b002661b5be7427700e29aa3062826c9af704cb9611685d921b813985e")
        self.assertEqual(va.Keystream(mixed, va.STARTER_STREAM).uniform(4), 1)


HOUSE_OSMOSIS = {
    "ace": "low", "jokers_wild": "in_runs_and_sets", "discard_draw": "ends", "joker_swap": False,
    "card_values": {"jack": 10, "queen": 10, "king": 10, "king_of_hearts": 0, "joker": 0},
    "add_ons": {"to_sets": True, "to_single_cards": False, "to_runs": True, "in_own_turn": True,
                "call_after_own_add_on": False},
    "bonus_rules": ["cell_division", "osmosis"],
}


def piles(**tops):
    """Live piles by size: piles(p1="6H", p3="4C 5C 6C")."""
    return {int(k[1:]): {"top": v.split(), "below": va.Counter(), "dead": False}
            for k, v in tops.items()}


class OsmosisPiles(unittest.TestCase):
    # House Rules, Osmosis: "With Osmosis, though, any player can draw from, add-on, and
    # slap-down on any pile." §6.1 names the pile no event writes.

    def test_a_turn_draws_from_any_live_pile_not_only_its_own(self):
        # "any player can draw from ... any pile": a throw of one card takes the end of
        # the three-card pile's run.
        table = piles(p1="KS", p3="4C 5C 6C")
        self.assertEqual(va.osmosis_draw_pile(table, "6C", ["9D"], HOUSE_OSMOSIS), 3)
        self.assertEqual(va.osmosis_draw_pile(table, "KS", ["9D", "9H"], HOUSE_OSMOSIS), 1)
        # Only what a top offers (§6.1 takeable: the ends under "ends").
        self.assertIsNone(va.osmosis_draw_pile(table, "5C", ["9D"], HOUSE_OSMOSIS))

    def test_a_card_two_tops_offer_comes_from_the_smallest_pile(self):
        # §6.1: "Two tops can offer the same card only with two jokers or two decks; the
        # smaller pile gives it."
        table = piles(p2="JK 8D", p3="3H 3S JK")
        self.assertEqual(va.osmosis_draw_pile(table, "JK", ["9D"], HOUSE_OSMOSIS), 2)
        table[2]["dead"] = True
        self.assertEqual(va.osmosis_draw_pile(table, "JK", ["9D"], HOUSE_OSMOSIS), 3)

    def test_a_slap_goes_on_the_latest_throw_when_it_fits_there(self):
        # "any player can ... slap-down on any pile": the latest throw first.
        table = piles(p1="8S", p3="6H 7H 8H")
        self.assertEqual(va.osmosis_lay_pile(table, 3, ["8C"], True, HOUSE_OSMOSIS), 3)
        self.assertEqual(va.osmosis_lay_pile(table, 3, ["9H"], True, HOUSE_OSMOSIS), 3)

    def test_a_slap_that_misses_the_latest_throw_goes_on_the_smallest_pile_it_fits(self):
        table = piles(p1="KD", p2="KS KH", p3="6H 7H 8H")
        self.assertEqual(va.osmosis_lay_pile(table, 3, ["KC"], True, HOUSE_OSMOSIS), 1)
        table[1]["dead"] = True
        self.assertEqual(va.osmosis_lay_pile(table, 3, ["KC"], True, HOUSE_OSMOSIS), 2)
        self.assertIsNone(va.osmosis_lay_pile(table, 3, ["2C"], True, HOUSE_OSMOSIS))

    def test_an_add_on_completes_a_set_on_another_pile(self):
        # House Rules: "any other player has the cards that would complete that set (i.e.
        # make it a set of four cards...)"; with Osmosis on "any pile".
        table = piles(p1="4D", p3="9C 9H 9D", p4="2S 3S 4S 5S")
        self.assertEqual(va.osmosis_lay_pile(table, 4, ["9S"], False, HOUSE_OSMOSIS), 3)
        self.assertEqual(va.osmosis_lay_pile(table, 4, ["6S"], False, HOUSE_OSMOSIS), 4)
        self.assertIsNone(va.osmosis_lay_pile(table, 4, ["4C"], False, HOUSE_OSMOSIS))

    def test_a_draw_swap_removes_so_the_run_left_still_takes_a_joker(self):
        # House Rules: "A joker can be used as a 'wild' card to complete a straight or
        # set." §6.1: the drawn joker leaves the top by swap remove, so 3H JK 5H JK minus
        # its top joker is 3H JK 5H (not 3H 5H JK), a run another joker extends.
        top = ["3H", "JK", "5H", "JK"]
        self.assertTrue(va.swap_remove(top, "JK"))
        self.assertEqual(top, ["3H", "JK", "5H"])
        table = {1: {"top": ["JS"], "below": va.Counter(), "dead": False},
                 3: {"top": top, "below": va.Counter(), "dead": False}}
        self.assertEqual(va.osmosis_lay_pile(table, 1, ["JK"], False, HOUSE_OSMOSIS), 3)

    def test_the_fits_tests_read_runs_sets_and_jokers(self):
        rules = HOUSE_OSMOSIS
        self.assertEqual(va.classify(["4D", "5D", "JK", "7D"], rules), ("run", 4, 1))
        self.assertEqual(va.classify(["QS", "JS", "10S"], rules), ("run", 12, -1))
        self.assertEqual(va.classify(["4C", "4D", "JK"], rules), "set")
        self.assertIsNone(va.classify(["QS", "KS", "AS"], rules))
        self.assertIsNotNone(va.classify(["QS", "KS", "AS"], dict(rules, ace="low_or_high")))
        self.assertEqual(va.takeable(["JK", "8C", "9C"], rules), ["JK", "9C"])
        self.assertEqual(va.takeable(["8C", "8H", "8S"], dict(rules, discard_draw="top_only")), ["8S"])
        swap = dict(rules, joker_swap=True)
        self.assertTrue(va.joker_swap_allowed(["4D", "5D", "JK", "7D"], ["6D"], swap))
        self.assertFalse(va.joker_swap_allowed(["4D", "5D", "JK", "7D"], ["6H"], swap))
        # Mathematician: "if a 3 is discarded, another player may lay down a 6 or a 9".
        maths = dict(rules, bonus_rules=["cell_division", "osmosis", "mathematician"])
        self.assertTrue(va.add_on_fits(["3C"], ["9D"], maths))
        self.assertFalse(va.add_on_fits(["3C"], ["9D"], rules))

    def test_osmosis_games_are_verified_not_unverifiable(self):
        checker = va.GameChecker(va.Verifier({"format": "yaniv-archive/1", "streams": []}), "table-1")
        failures = []
        checker.fail = lambda version, code, reason, kind="wrong": failures.append(code)
        checker.on_game_created(1, {"rules": dict(HOUSE_OSMOSIS), "players": ["a", "b"],
                                    "initial_totals": [0, 0]})
        self.assertEqual(failures, [])
        self.assertTrue(checker.osmosis)


class Archive(unittest.TestCase):
    def setUp(self):
        self.doc = load_fixture()
        for s in self.doc["streams"]:
            for e in s["events"]:
                e["_sid"] = s["stream_id"]

    def verify(self, doc):
        for s in doc["streams"]:
            for e in s["events"]:
                e.pop("_sid", None)
        return va.verify_document(doc)

    def game_sid(self):
        return next(s["stream_id"] for s in self.doc["streams"]
                    if s["stream_id"].startswith("table-"))

    def test_clean_archive_is_ok(self):
        v = self.verify(self.doc)
        self.assertTrue(v["ok"], v["first_failure"])
        self.assertIsNone(v["first_failure"])
        self.assertGreater(v["checked"]["stock_draws"], 0)
        self.assertGreater(v["checked"]["rounds_scored"], 0)

    def test_changed_payload_byte_breaks_the_chain_there(self):
        sid = self.game_sid()
        events = stream(self.doc, sid)
        target = next(e for e in events if e["type"] == "turn_played.v1" and e["version"] > 15)
        target["payload"] = target["payload"].replace('"seat":', '"seat" :', 1)
        v = self.verify(self.doc)
        self.assertFalse(v["ok"])
        ff = v["first_failure"]
        self.assertEqual((ff["stream"], ff["version"], ff["code"]),
                         (sid, target["version"], "hash_mismatch"))

    def test_truncated_tail_fails_the_checkpoint(self):
        sid = self.game_sid()
        events = stream(self.doc, sid)
        n = len(events)
        del events[n - 3:]
        v = self.verify(self.doc)
        self.assertFalse(v["ok"])
        ff = v["first_failure"]
        # §20.3: at the first version missing
        self.assertEqual((ff["stream"], ff["version"], ff["code"]),
                         (sid, n - 2, "truncated_since_checkpoint"))

    def test_deleted_tournament_finish_fails_the_checkpoint(self):
        # verification.md 1.3: "the last of them records each stream at the version it
        # ends at": cut the tournament's last event (its finish), as a forger who
        # recomputes nothing would.
        sid = "tournament-%s" % self.doc["tournament_id"]
        events = stream(self.doc, sid)
        last = events.pop()
        self.assertEqual(last["type"], "tournament_finished.v1")
        v = self.verify(self.doc)
        self.assertFalse(v["ok"])
        ff = v["first_failure"]
        self.assertEqual((ff["stream"], ff["version"], ff["code"]),
                         (sid, last["version"], "truncated_since_checkpoint"))

    def test_archive_without_checkpoints_proves_no_head(self):
        # verification.md 1.3: "An archive in which no checkpoint records a stream at
        # its last version or later fails with archive_head_not_checkpointed".
        self.doc["checkpoints"] = []
        v = self.verify(self.doc)
        self.assertFalse(v["ok"])
        found = {(f["stream"], f["version"], f["code"]) for f in v["failures"]}
        for s in self.doc["streams"]:
            self.assertIn((s["stream_id"], len(s["events"]), "archive_head_not_checkpointed"),
                          found)

    def test_changed_stock_draw_with_recomputed_chain(self):
        sid = self.game_sid()
        events = stream(self.doc, sid)
        target = next(e for e in events if e["type"] == "turn_played.v1"
                      and '"stock"' in e["payload"] and e["version"] > 20)
        p = json.loads(target["payload"])
        drawn = p["draw"]["stock"]
        other = "KS" if drawn != "KS" else "QS"
        target["payload"] = target["payload"].replace('"stock":"%s"' % drawn,
                                                      '"stock":"%s"' % other)
        rechain(events, target["version"])
        v = self.verify(self.doc)
        self.assertFalse(v["ok"])
        ff = v["first_failure"]
        self.assertEqual((ff["stream"], ff["version"], ff["code"]),
                         (sid, target["version"], "card_not_available"))
        # the forged chain is still caught by the checkpoint, at the head
        codes = {(f["stream"], f["code"]) for f in v["failures"]}
        self.assertIn((sid, "rewritten_since_checkpoint"), codes)

    def test_changed_tournament_result_with_recomputed_chain(self):
        sid = "tournament-%s" % self.doc["tournament_id"]
        events = stream(self.doc, sid)
        target = next(e for e in events if e["type"] == "tournament_finished.v1")
        p = json.loads(target["payload"])
        p["ranking"][0]["player"], p["ranking"][1]["player"] = \
            p["ranking"][1]["player"], p["ranking"][0]["player"]
        target["payload"] = json.dumps(p, separators=(",", ":"))
        rechain(events, target["version"])
        v = self.verify(self.doc)
        ff = v["first_failure"]
        self.assertEqual((ff["stream"], ff["version"]), (sid, target["version"]))
        at = {f["code"] for f in v["failures"] if f["version"] == target["version"]}
        # the last event is also the checkpointed head: both findings are at that version
        self.assertIn("ranking_mismatch", at)

    def test_changed_registration_order_with_recomputed_chain(self):
        # §12: "The event's `order` field is always index + 1"
        sid = "tournament-%s" % self.doc["tournament_id"]
        events = stream(self.doc, sid)
        target = [e for e in events if e["type"] == "player_registered.v1"][1]
        self.assertIn('"order":2', target["payload"])
        target["payload"] = target["payload"].replace('"order":2', '"order":1')
        rechain(events, target["version"])
        v = self.verify(self.doc)
        ff = v["first_failure"]
        self.assertEqual((ff["stream"], ff["version"], ff["code"]),
                         (sid, target["version"], "player_order"))

    def test_cli_exit_codes(self):
        script = os.path.join(HERE, "verify_archive.py")
        ok = subprocess.run([sys.executable, script, FIXTURE], capture_output=True)
        self.assertEqual(ok.returncode, 0, ok.stdout[-500:])
        self.assertTrue(json.loads(ok.stdout)["ok"])
        bad = subprocess.run([sys.executable, script, "-"], input=b'{"format":"other"}',
                             capture_output=True)
        self.assertEqual(bad.returncode, 2)
        garbage = subprocess.run([sys.executable, script, "-"], input=b"not json",
                                 capture_output=True)
        self.assertEqual(garbage.returncode, 2)


SLAPPED = os.path.join(HERE, "..", "..", "domain", "tests", "fixtures",
                       "slapped_cards.events.jsonl")


def game_of(events):
    """The game checks of §6 alone, on one table stream of bare events."""
    v = va.Verifier({"tournament_id": 0})
    v.payloads["table-1"] = {i + 1: (e["type"], e) for i, e in enumerate(events)}
    va.GameChecker(v, "table-1").run()
    return v


class SlappedCards(unittest.TestCase):
    """A slapped card is a play (§6): the stream the engine pins in
    domain/tests/fixtures/slapped_cards.events.jsonl, where each card a bonus rule
    reacts to is slapped down, checks clean; without its effects it does not."""

    def setUp(self):
        with open(SLAPPED, "rb") as f:
            self.events = [json.loads(line) for line in f.read().decode("utf-8").splitlines()]

    def test_every_slapped_effect_checks(self):
        v = game_of(self.events)
        self.assertEqual(v.failures, [])
        for kind in ("forced_draws", "pinatas", "redeals", "queen_swaps", "hands_shown"):
            self.assertGreater(v.checked[kind], 0, kind)

    def test_a_slapped_seven_must_force_its_draws(self):
        at = next(i for i, e in enumerate(self.events)
                  if e["type"] == "slapped_down.v1" and e["card"] == "7D")
        forged = self.events[:at + 1] + self.events[at + 3:]
        v = game_of(forged)
        self.assertTrue(v.failures)
        self.assertEqual(v.failures[0]["version"], at + 2)

    def test_an_old_game_has_no_slapped_effects(self):
        old = copy.deepcopy(self.events)
        del old[0]["slap_downs_play"]
        at = next(i for i, e in enumerate(old)
                  if e["type"] == "slapped_down.v1" and e["card"] == "7D")
        v = game_of(old)
        # The slapped nine no longer turns play back (Southern hemisphere): seat 1's
        # turn after it comes out of turn; then the slapped seven owes no draw.
        self.assertEqual((v.failures[0]["version"], v.failures[0]["code"]),
                         (5, "not_your_turn"))
        self.assertIn((at + 2, "unexpected_event"),
                      [(f["version"], f["code"]) for f in v.failures])


FIXTURES = os.path.join(HERE, "..", "..", "domain", "tests", "fixtures")


def pinned(name):
    with open(os.path.join(FIXTURES, name), "rb") as f:
        return [json.loads(line) for line in f.read().decode("utf-8").splitlines()]


class GrownHands(unittest.TestCase):
    """Sevens: "a card is drawn for each seven played", with no limit (§6): the stream
    the engine pins in domain/tests/fixtures/grown_hands.events.jsonl, where hands grow
    to 18 by forced draws and past that by a waterfall and the piñata, checks clean
    under hands_uncapped; read as a game created without it, the draws past 16 are
    not owed."""

    def setUp(self):
        self.events = pinned("grown_hands.events.jsonl")

    def test_hands_above_sixteen_check(self):
        self.assertTrue(self.events[0].get("hands_uncapped"))
        v = game_of(self.events)
        self.assertEqual(v.failures, [])
        for kind in ("forced_draws", "pinatas"):
            self.assertGreater(v.checked[kind], 0, kind)

    def test_without_the_flag_a_hand_stops_at_sixteen(self):
        old = copy.deepcopy(self.events)
        del old[0]["hands_uncapped"]
        v = game_of(old)
        self.assertTrue(v.failures)
        # The first draw past 16: bob's third of the second four sevens.
        forced = [i for i, e in enumerate(old)
                  if e["type"] == "forced_to_draw.v1" and e["seat"] == 1]
        self.assertEqual(v.failures[0]["version"], forced[6] + 1)


class WhoseTurn(unittest.TestCase):
    """§6, whose turn it is: before a call, each turn is the next seat's in the
    direction of play; under Southern hemisphere a natural nine reverses it."""

    def setUp(self):
        with open(SLAPPED, "rb") as f:
            self.events = [json.loads(line) for line in f.read().decode("utf-8").splitlines()]

    def test_a_turn_out_of_turn_is_refused(self):
        forged = copy.deepcopy(self.events)
        # Seat 0's nine and slapped nine turned play round twice: seat 1 plays next.
        self.assertEqual((forged[4]["type"], forged[4]["seat"]), ("turn_played.v1", 1))
        forged[4]["seat"] = 2
        v = game_of(forged)
        self.assertEqual((v.failures[0]["version"], v.failures[0]["code"]),
                         (5, "not_your_turn"))


class OsmosisOrder(unittest.TestCase):
    """§6.1: under pile_tops_keep_order a draw off a run leaves it in order, so after
    the 3H is drawn off 3H 4H 5H 6H the 4H is an end (discard_draw "ends"); read as a
    game created without it, the top is 6H 4H 5H and the 4H is not offered."""

    def setUp(self):
        self.events = pinned("osmosis_order.events.jsonl")

    def test_the_run_keeps_its_order(self):
        self.assertTrue(self.events[0].get("pile_tops_keep_order"))
        v = game_of(self.events)
        self.assertEqual(v.failures, [])

    def test_without_the_flag_the_inner_card_is_refused(self):
        old = copy.deepcopy(self.events)
        del old[0]["pile_tops_keep_order"]
        v = game_of(old)
        self.assertTrue(v.failures)
        self.assertEqual(v.failures[0]["code"], "illegal_draw")


if __name__ == "__main__":
    unittest.main()
