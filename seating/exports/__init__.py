"""Exports of seating: a round's seating by table and by player (PDF, XLSX)."""
