# bad_flip.sh — bad_truncate.sh's checks on random byte flips (fixed seed)
# of every sample, corpus file and fuzz seed.
BAD_MODE=flip
. "$PK_SOURCE/tests/cli/cases/bad_truncate.sh"
