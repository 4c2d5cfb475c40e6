"""What yes and seq share: commands that generate output without reading any."""

# The first piece a generator writes: small, so `seq 1 1000000000 | head -n 2` answers at once.
FIRST_BATCH = 4096

CANCELLED_STATUS = 130  # what bash reports for a command interrupted by Ctrl-C
