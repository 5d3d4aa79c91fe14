#!/bin/sh
# The API-use check (docs/eval.md, "API use") on every operator package under ops/ (op_kernel
# and op_host, and each expert) and on the test kernels meant to evaluate: none may be refused.
# Prints one line per candidate with the check's time; exit status 0 when all pass.
#   scripts/api-check-suite.sh [BUILD_DIR]      (default: build; needs test_eval_api_use_check_test)
set -eu
build=${1:-build}
AOC_API_CHECK_SUITE=1 exec "$build/tests/test_eval_api_use_check_test" --gtest_filter='ApiUseSuite.*'
