#!/usr/bin/env bash
# The two entry points README.md gives a newcomer:
#   bash installer/run.sh demo   set up, index the bundled sample, print its transcript
#   bash installer/run.sh test   set up, then lint and run the whole test suite
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/setup.sh
case "${1:-demo}" in
  demo)
    SAMPLE=resources/samples/consultation.flac
    .venv/bin/harp index "$SAMPLE"
    .venv/bin/harp show "$SAMPLE"
    echo
    echo "Q: Does the patient report chest pain or tightness?"
    .venv/bin/harp ask "$SAMPLE" "Does the patient report chest pain or tightness?"
    ;;
  test)
    .venv/bin/ruff check harp_desktop tests benchmarks resources installer
    QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q "${@:2}"
    ;;
  *) echo "usage: bash installer/run.sh demo|test" >&2; exit 2 ;;
esac
