#!/usr/bin/env bash
# The number of tests `make test` runs, counted by the runners themselves (`swift test list` on the
# built tests, `pytest --collect-only` on Tests/E2E), into Docs/generated/tests.md, which
# Scripts/generated-docs.py copies into Docs/Testing.md. Tests/E2E/test_docs.py counts again and
# fails when the file or a page quotes another number: run this after adding or removing tests.
# Usage: Scripts/test-counts.sh   (after `swift build --build-tests`)
set -euo pipefail
cd "$(dirname "$0")/.."
listed=$(swift test list --skip-build 2>/dev/null) ||
    { echo "test-counts: swift test list failed (swift build --build-tests first)" >&2; exit 1; }
swift_tests=$(grep -c . <<<"$listed")
catalogue_tests=$(grep -c '^SoundStationTests\.Catalogue[A-Za-z]*Tests/' <<<"$listed")
e2e_tests=$(/usr/bin/python3 -m pytest -p no:cacheprovider --collect-only -q Tests/E2E 2>/dev/null |
    grep -c '::') || { echo "test-counts: pytest --collect-only Tests/E2E failed" >&2; exit 1; }
cat >Docs/generated/tests.md <<EOF
<!-- Written by Scripts/test-counts.sh; do not edit. -->
| tests | how many | counted by |
| --- | --- | --- |
| Swift (Tests/*Tests) | $swift_tests | \`swift test list\` |
| of which the catalogue's (SoundStationTests.Catalogue*Tests) | $catalogue_tests | \`swift test list\` |
| end to end (Tests/E2E) | $e2e_tests | \`pytest --collect-only -q Tests/E2E\` |
EOF
echo "test-counts: $swift_tests Swift tests ($catalogue_tests of the catalogue), $e2e_tests end-to-end tests"
/usr/bin/python3 Scripts/generated-docs.py update
