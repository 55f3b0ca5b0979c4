#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against Conduit
# (conformance/client.mjs, on the built package in dist/; run `npm run build` first).
#
# Usage: scripts/conformance.sh [-s SPEC_VERSION]... [SCENARIO]...
#   -s       a spec version to run (repeatable); default: 2025-03-26, 2025-06-18, 2025-11-25,
#            2026-07-28, `extension` (the extension scenarios: authorization and skills, which
#            have no version; the suite runs them at 2025-11-25), and `extension@2026-07-28`
#            (the skills scenarios again, forced to the modern era, which their server speaks)
#   SCENARIO run only these; default: every client scenario the suite lists for the version,
#            except extension scenarios
# Environment:
#   CONFORMANCE_CACHE    where the suite and, if needed, Node 22 are installed
#                        (default ~/.cache/conduit-conformance)
#   CONFORMANCE_OUT      where results go (default a new directory under $TMPDIR)
#   CONFORMANCE_TIMEOUT  per-scenario timeout in ms given to the suite (default 30000)
#
# Prints one row per scenario and version and exits 1 if any check failed or warned, if the
# suite judged a run failed (client exit code, timeout), if a run verified nothing (no check
# succeeded), or if a run left no checks.json without the suite calling it not applicable.
set -euo pipefail

SUITE_VERSION=0.2.0-alpha.12
SPEC_VERSIONS=()
CACHE=${CONFORMANCE_CACHE:-$HOME/.cache/conduit-conformance}
TIMEOUT=${CONFORMANCE_TIMEOUT:-30000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

while getopts "s:h" opt; do
  case $opt in
    s) SPEC_VERSIONS+=("$OPTARG") ;;
    *) sed -n '2,20p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
ONLY=("$@")
[ ${#SPEC_VERSIONS[@]} -gt 0 ] || SPEC_VERSIONS=(2025-03-26 2025-06-18 2025-11-25 2026-07-28 extension extension@2026-07-28)

cd "$ROOT"
if [ ! -f dist/node.js ]; then
  echo "conformance: dist/ is missing; run \`npm run build\` first" >&2
  exit 2
fi

# ---- set-up: the suite's CLI needs Node >= 22 (it uses fs.globSync) ---------------------------
# Only the CLI runs on it: the client under test runs on the `node` on PATH, via npm.
mkdir -p "$CACHE"
CLI_NODE=node
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
  platform=$(node -p 'process.platform + "-" + process.arch')   # linux-x64, darwin-arm64, ...
  CLI_NODE="$CACHE/node22/node_modules/node-$platform/bin/node"
  if [ ! -x "$CLI_NODE" ]; then
    echo "conformance: installing Node 22 (npm package node-$platform@22) into $CACHE/node22" >&2
    mkdir -p "$CACHE/node22"
    npm install --prefix "$CACHE/node22" --no-save --no-audit --no-fund --loglevel=error "node-$platform@22" >&2
  fi
fi

SUITE_DIR="$CACHE/suite-$SUITE_VERSION"
CLI="$SUITE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -f "$CLI" ]; then
  echo "conformance: installing @modelcontextprotocol/conformance@$SUITE_VERSION into $SUITE_DIR" >&2
  mkdir -p "$SUITE_DIR"
  npm install --prefix "$SUITE_DIR" --no-save --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/conformance@$SUITE_VERSION" >&2
fi
suite() { "$CLI_NODE" "$CLI" "$@"; }

# `conformance list --client [--spec-version V]` prints "  - NAME [TAGS]", TAGS being the
# versions the scenario applies to, or "extension". The pseudo-version `extension` stands for
# the extension scenarios (they have no version of their own): authorization (`auth/*`) and
# skills (`sep-2640-client-*`). The suite runs them at 2025-11-25; `extension@2026-07-28` runs
# the skills ones at 2026-07-28 as well (with --force: the suite puts extensions on no version),
# since their server answers `server/discover` as it answers `initialize`.
SKILLS_SCENARIOS='s/^  - \(sep-2640-client-[^ ]*\) \[extension\]$/\1/p'
scenarios_at() {
  if [ "$1" = extension ]; then
    suite list --client | sed -n -e 's/^  - \(auth\/[^ ]*\) \[extension\]$/\1/p' -e "$SKILLS_SCENARIOS"
    return
  fi
  if [ "$1" = extension@2026-07-28 ]; then
    suite list --client | sed -n "$SKILLS_SCENARIOS"
    return
  fi
  suite list --client --spec-version "$1" | sed -n 's/^  - \([^ ]*\) \[\(.*\)\]$/\1 \2/p' |
    while read -r name tags; do
      [ "$tags" = extension ] && continue
      echo "$name"
    done
}

# Counts of a checks.json, tab-separated: success failure warning skipped.
count_checks() {
  node -e '
    const checks = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const n = (status) => checks.filter((check) => check.status === status).length;
    console.log([n("SUCCESS"), n("FAILURE"), n("WARNING"), n("SKIPPED")].join("\t"));' "$1"
}

# The failing and warning checks of a checks.json, one line each.
bad_checks() {
  node -e '
    const checks = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const c of checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING"))
      console.log(`    ${c.status} ${c.id} (${c.name}): ${c.errorMessage ?? c.description}`);' "$1"
}

# ---- runs ---------------------------------------------------------------------------------------
OUT=${CONFORMANCE_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/conduit-conformance.XXXXXX")}
mkdir -p "$OUT"
ROWS=()
PROBLEMS=()
failed=0
started=$SECONDS
echo "conformance suite $SUITE_VERSION (CLI on node $("$CLI_NODE" --version), client on node $(node --version)); results in $OUT" >&2

for spec in "${SPEC_VERSIONS[@]}"; do
  if [ ${#ONLY[@]} -gt 0 ]; then names=("${ONLY[@]}"); else mapfile -t names < <(scenarios_at "$spec"); fi
  if [ ${#names[@]} -eq 0 ]; then   # the listing failed or changed its format: not a pass
    failed=1
    PROBLEMS+=("no scenario listed for $spec: see \`$CLI_NODE $CLI list --client --spec-version $spec\`")
  fi
  for name in "${names[@]}"; do
    dir="$OUT/$spec/${name//\//_}"
    mkdir -p "$dir"
    t0=$(date +%s.%N)
    rc=0
    version_args=(--spec-version "$spec")
    [ "$spec" = extension ] && version_args=()
    [ "$spec" = extension@2026-07-28 ] && version_args=(--spec-version 2026-07-28 --force)
    suite client --command "npm run --silent conformance:client --" --scenario "$name" \
      "${version_args[@]}" --timeout "$TIMEOUT" -o "$dir" > "$dir/run.log" 2>&1 || rc=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    checks=$(find "$dir" -name checks.json | head -n 1)
    if [ -n "$checks" ]; then
      counts=$(count_checks "$checks")
      IFS=$'\t' read -r nsucc nfail nwarn _ <<< "$counts"
      # A run whose checks all came out SKIPPED verified nothing (http-standard-headers reports
      # every header check SKIPPED when the client sent no request at all): not a pass.
      verdict=ok
      if [ "$nfail" -gt 0 ] || [ "$nwarn" -gt 0 ] || [ "$nsucc" -eq 0 ] || [ "$rc" -ne 0 ]; then verdict=FAIL; fi
    elif [ "$rc" -eq 0 ] && grep -q "^SKIPPED: scenario '$name' is not applicable" "$dir/run.log"; then
      # The suite writes no checks.json for a scenario outside its applicability window at the
      # requested version: it prints "SKIPPED: ... not applicable ..." and exits 0. Only a
      # scenario named on the command line can get here; the listed ones all apply.
      counts=$'-\t-\t-\t-'
      verdict=n/a
    else
      counts=$'-\t-\t-\t-'
      verdict=FAIL   # the suite did not get as far as judging: see run.log
    fi
    if [ "$verdict" = FAIL ]; then
      failed=1
      PROBLEMS+=("$name @ $spec (suite exit $rc; $dir/run.log)")
      [ -n "$checks" ] && mapfile -t -O "${#PROBLEMS[@]}" PROBLEMS < <(bad_checks "$checks")
      if [ -n "$checks" ] && [ -s "$(dirname "$checks")/stderr.txt" ]; then
        PROBLEMS+=("    client stderr: $(tail -n 3 "$(dirname "$checks")/stderr.txt" | tr '\n' ' ')")
      fi
    fi
    row=$(printf "%-38s %-20s %4s %4s %4s %4s %6s  %s" "$name" "$spec" $counts "$secs" "$verdict")
    ROWS+=("$row")
    echo "$row" >&2
  done
done

echo
printf "%-38s %-20s %4s %4s %4s %4s %6s  %s\n" scenario version succ fail warn skip secs verdict
printf "%s\n" "${ROWS[@]}"
echo "total: ${#ROWS[@]} runs in $((SECONDS - started)) s; results in $OUT"
if [ $failed -ne 0 ]; then
  echo
  echo "failed:"
  printf "  %s\n" "${PROBLEMS[@]}"
fi
exit $failed
