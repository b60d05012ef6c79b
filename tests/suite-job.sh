# Guest job of "make check": the test runner, results into the run directory.
RESULTS=$RUN_DIR/results "$PROJECT/tests/runner.sh" "$@"
