"""Reads of results: standings, penalties, a player's rounds, and the standings' rows."""
