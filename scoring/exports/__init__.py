"""Exports of results: standings (PDF, XLSX), team rankings, EMA results, score sheets."""
