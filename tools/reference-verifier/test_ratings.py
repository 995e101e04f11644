"""Self-test of the rating recomputation (standard library only).

Run: python3 -m unittest discover -s tools/reference-verifier
"""

import copy
import json
import math
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import ratings  # noqa: E402

FIXTURE = os.path.join(HERE, "cup.yaniv-archive.json")


def load_fixture():
    with open(FIXTURE, "rb") as f:
        return json.loads(f.read().decode("utf-8"))


def tournament_events(doc):
    sid = "tournament-%d" % doc["tournament_id"]
    return next(s for s in doc["streams"] if s["stream_id"] == sid)["events"]


class Vectors(unittest.TestCase):
    """docs/ratings.md section 3, worked vectors."""

    def test_two_new_players(self):
        (w, l) = ratings.rate_game([(25.0, ratings.SIGMA0, 1), (25.0, ratings.SIGMA0, 2)])
        step = 5 * math.sqrt(10) / 6
        self.assertAlmostEqual(w[0], 25 + step, places=12)
        self.assertAlmostEqual(l[0], 25 - step, places=12)
        self.assertAlmostEqual(w[1], 8.065506316323548, places=12)

    def test_four_new_players_with_a_tie(self):
        new = (25.0, ratings.SIGMA0)
        out = ratings.rate_game([new + (1,), new + (2,), new + (2,), new + (4,)])
        scale = 5 * math.sqrt(5) / 3
        for (mu, _), omega in zip(out, [3 / 4, -1 / 12, -1 / 12, -7 / 12]):
            self.assertAlmostEqual(mu, 25 + scale * omega, places=12)
        cube = 1 / (5 * math.sqrt(5))
        for (_, sigma), delta in zip(out, [3 / 16, 59 / 144, 59 / 144, 59 / 144]):
            self.assertAlmostEqual(sigma, ratings.SIGMA0 * math.sqrt(1 - cube * delta), places=12)

    def test_sigma_never_grows_past_a_new_players(self):
        out = ratings.rate_game([(45.0, 8.3, 1), (5.0, 8.3, 2)])
        self.assertTrue(all(s <= ratings.SIGMA0 for _, s in out))


class FromArchives(unittest.TestCase):
    def test_the_fixture_rates_its_games(self):
        doc = load_fixture()
        listing = ratings.rating_list([doc])
        self.assertEqual(listing["format"], "yaniv-ratings/1")
        self.assertGreater(listing["games"], 0)
        ranks = [r["rank"] for r in listing["ratings"]]
        self.assertEqual(ranks, list(range(1, len(ranks) + 1)))
        shown = [r["rating"] for r in listing["ratings"]]
        self.assertEqual(shown, sorted(shown, reverse=True))

    def test_an_unrated_tournament_rates_nothing(self):
        doc = load_fixture()
        events = tournament_events(doc)
        created = json.loads(events[0]["payload"])
        created["config"]["rated"] = False
        events[0]["payload"] = json.dumps(created)
        self.assertEqual(ratings.rating_list([doc])["games"], 0)

    def test_a_correction_keeps_the_games_place_and_changes_its_result(self):
        doc = load_fixture()
        events = tournament_events(doc)
        recorded = [e for e in events if e["type"] == "result_recorded.v1"]
        first = json.loads(recorded[0]["payload"])
        swapped = list(reversed(first["result"]))
        for place, line in enumerate(swapped, start=1):
            line["place"] = place
        fixed = copy.deepcopy(doc)
        fixed_events = tournament_events(fixed)
        fixed_events.append({
            "version": events[-1]["version"] + 1,
            "type": "result_corrected.v1",
            "payload": json.dumps({"type": "result_corrected.v1", "table": first["table"],
                                   "input": first["input"], "result": swapped,
                                   "reason": "test", "by": "server", "flagged": []}),
            "recorded_at_micros": events[-1]["recorded_at_micros"] + 10**9,
        })
        before = {r["player"]: r for r in ratings.rating_list([doc])["ratings"]}
        after = {r["player"]: r for r in ratings.rating_list([fixed])["ratings"]}
        self.assertEqual(set(before), set(after))
        self.assertNotEqual([r["mu"] for r in before.values()], [after[p]["mu"] for p in before])
        # Same games, each player's last game where it was.
        for p in before:
            self.assertEqual(before[p]["games"], after[p]["games"])
            self.assertEqual(before[p]["last_played_micros"], after[p]["last_played_micros"])



def table_rows(table_id, created, seats, standings, finished_at):
    """A yaniv-rated-tables/1 table: `seats` as (seat, account), standings (seat, place)."""
    stream = "table-%d" % table_id
    rows = [{"stream_id": stream, "version": 1, "type": "table_created.v1",
             "payload": json.dumps(dict({"type": "table_created.v1"}, **created)),
             "recorded_at_micros": finished_at - 100}]
    for seat, account in seats:
        rows.append({"stream_id": stream, "version": len(rows) + 1, "type": "seat_taken.v1",
                     "payload": json.dumps({"type": "seat_taken.v1", "seat": seat,
                                            "account_id": account, "username": "p%d" % account}),
                     "recorded_at_micros": finished_at - 50})
    rows.append({"stream_id": stream, "version": 99, "type": "game_finished.v1",
                 "payload": json.dumps({"type": "game_finished.v1", "standings": [
                     {"seat": seat, "total": 10 * place, "place": place} for seat, place in standings]}),
                 "recorded_at_micros": finished_at})
    return rows


class CasualTables(unittest.TestCase):
    def test_humans_only_placed_among_themselves_after_tournament_games_of_their_time(self):
        doc = load_fixture()
        tournament = ratings.rated_games(doc)
        at = min(g[0] for g in tournament)
        rows = table_rows(5, {"seats": 3, "bots": [{"seat": 0}], "rated": True},
                          [(1, 901), (2, 902)], [(0, 1), (2, 2), (1, 3)], at)
        rows += table_rows(6, {"seats": 2, "bots": []}, [(0, 903), (1, 904)],
                           [(0, 1), (1, 2)], at)
        rows += table_rows(7, {"seats": 2, "bots": [{"seat": 1}], "rated": True},
                           [(0, 905)], [(1, 1), (0, 2)], at)
        tables = {"format": "yaniv-rated-tables/1", "rows": rows}
        games = ratings.casual_games(tables)
        # Unrated (6) and one human among bots (7) rate nothing.
        self.assertEqual(games, [(at, (ratings.CASUAL_GAME, 5), [(902, 1), (901, 2)])])
        listing = ratings.rating_list([doc], tables=tables)
        self.assertEqual(listing["games"], len(tournament) + 1)
        players = {r["player"] for r in listing["ratings"]}
        self.assertTrue({901, 902} <= players and not {903, 904, 905} & players)
        # At the same time as the first tournament game, the casual game comes after it.
        first = sorted(tournament + games, key=lambda g: (g[0], g[1]))
        self.assertEqual(first[0][1][0], ratings.TOURNAMENT_GAME)


if __name__ == "__main__":
    unittest.main()
