"""Three clicks on Generate at the same moment, run in a process of their own as
`tests.security.concurrency` runs the score-sheet races (one connection per thread, a SQLite
file or a PostgreSQL database): `python -m tests.security.seating_race` prints what each click
got, as JSON; `test_one_seating_run_at_a_time.py` judges it.
"""

from __future__ import annotations

import datetime
import json
import os
import uuid


def main() -> None:
    from bench._support import setup_django

    setup_django(os.environ["DATABASE_URL"])
    from django.core.exceptions import ValidationError

    from seating.models import SeatingRun
    from seating.services import runs
    from tests.security.concurrency import _at_once
    from tournament.models import Player, Registration, Round, Tournament

    tournament = Tournament.objects.create(
        name="Click Open",
        slug=f"clicks-{uuid.uuid4().hex[:6]}",
        start_date=datetime.date(2026, 6, 6),
        end_date=datetime.date(2026, 6, 7),
        rounds_count=1,
    )
    Round.objects.create(tournament=tournament, number=1)
    for index in range(8):
        player = Player.objects.create(first_name=f"Clicker{index}", last_name="Test")
        Registration.objects.create(tournament=tournament, player=player)
    # Each run stays "running", as a run computing for its whole time limit does.
    runs._compute = lambda run, background: None

    def click() -> dict:
        try:
            run = runs.seating_run_start(
                tournament=tournament, rounds=list(tournament.rounds.all()), acting_user=None
            )
        except ValidationError as error:
            return {"outcome": "refused", "messages": error.messages}
        return {"outcome": "started", "run": run.pk}

    race = _at_once([click, click, click])
    running = SeatingRun.objects.filter(tournament=tournament, status="running").count()
    print(json.dumps({"race": race, "running": running}))


if __name__ == "__main__":
    main()
