"""One bot at the table: its process, its clock, the protocol it speaks, its faults.

Every seat is reached through one interface, :class:`referee.seat.transport.Transport`.
This package imports only :mod:`referee.game` from the rest of the referee.
"""
