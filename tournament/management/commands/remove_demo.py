from django.core.management.base import BaseCommand

from tournament.demo import remove_demo_tournament


class Command(BaseCommand):
    help = (
        "Remove the demo tournament before a real event: the tournament with everything it "
        "holds, its made-up players and its referees' logins. Anything a real tournament "
        "uses is kept, and named."
    )

    def handle(self, *args, **options) -> None:
        removed = remove_demo_tournament()
        if removed.tournaments or removed.players or removed.accounts:
            parts = [f"“{name}”" for name in removed.tournaments]
            parts.append(f"{removed.players} demo players")
            if removed.accounts:
                parts.append(f"the logins {', '.join(removed.accounts)}")
            self.stdout.write(self.style.SUCCESS(f"Removed the demo: {', '.join(parts)}."))
        else:
            self.stdout.write("No demo to remove.")
        for player, tournaments in removed.kept_players:
            self.stdout.write(
                f"Kept {player.display_name} (#{player.pk}; {player.distinguishing_details}), "
                f"also registered in {', '.join(tournaments)}: the record was the demo's, "
                "check its club and EMA number."
            )
        for username in removed.kept_accounts:
            self.stdout.write(f"Kept the login {username}: it has a role or results elsewhere.")
