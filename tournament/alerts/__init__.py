"""The players' e-mail alerts: only what changed for them, sent by the worker.

Four alerts: a round's seating published (every player seated in it), a seat changed by a
re-seating, a wrong-seat correction or the winds evened out (only the players whose table,
wind or opponents changed: `seats`), a round starting within ten minutes (once per round:
`tasks.send_round_start_alerts`), and a penalty given (the penalised player; queued by
`scoring.alerts`). Each is queued as a task once the write's transaction commits, so a
rolled-back write sends nothing, and goes to the players with an address who have not
followed the unsubscribe link of an earlier one (`mail`, `links`).

Not here: the registration's own confirmation mails, and the organisers' mails.
"""
