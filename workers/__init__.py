"""RQ jobs for what is slow or heavy: final scoring, replay exports and audits.

Their results become part of the record (a ``game_scored`` event) or files and
reports kept outside RQ, never RQ results alone, which RQ keeps for minutes.
"""
