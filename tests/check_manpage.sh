#!/bin/sh
# Checks the man page against the command: every option that `kf3ds help VERB`
# prints, for every verb `kf3ds --help` lists, must appear in the man page's
# section for that verb (the `.SS` heading that starts with the verb's name),
# and the overview's options anywhere in the page. Exits 1 naming each option
# that is missing, 0 when none is.
#   sh tests/check_manpage.sh [KF3DS] [MANPAGE]   (defaults: build/kf3ds docs/kf3ds.1)
set -u
tool=${1:-build/kf3ds}
page=${2:-docs/kf3ds.1}
me=check_manpage

[ -x "$tool" ] || { echo "$me: $tool: not an executable (build it first)" >&2; exit 1; }
[ -r "$page" ] || { echo "$me: $page: cannot read" >&2; exit 1; }

# The page as text: roff's escapes for a minus (\-), font changes (\fB, \fR,
# \f(..) and the zero-width ones (\&, \%) removed.
text=$(sed -e 's/\\-/-/g' -e 's/\\f([A-Za-z][A-Za-z]//g' -e 's/\\f[A-Za-z]//g' \
           -e 's/\\[&%]//g' "$page")

# The option-like words of standard input, one per line: --long-name or a
# single dash and one letter, delimited by anything but letters, digits and
# dashes (so "T(-pivot)" and "right-drag" are not options).
options() {
  tr -cs 'A-Za-z0-9-' '\n' | grep -E '^(--[A-Za-z][A-Za-z0-9-]*|-[A-Za-z])$' | sort -u
}

# The lines of the page's section for verb $1.
section() {
  printf '%s\n' "$text" | awk -v verb="$1" '
    /^\.S[HS]/ { name = $2; gsub(/"/, "", name); on = ($1 == ".SS" && name == verb); next }
    on'
}

verbs=$("$tool" --help | awk '/^Verbs:/ { v = 1; next } v && /^  [a-z]/ { print $1; next } v { exit }')
[ -n "$verbs" ] || { echo "$me: '$tool --help' lists no verbs" >&2; exit 1; }

missing=0
checked=0
for verb in $verbs; do
  sec=$(section "$verb")
  if [ -z "$sec" ]; then
    echo "$me: $page has no section for the verb '$verb' (.SS \"$verb ...\")" >&2
    missing=$((missing + 1))
    continue
  fi
  have=$(printf '%s\n' "$sec" | options)
  for opt in $("$tool" help "$verb" | options); do
    checked=$((checked + 1))
    if ! printf '%s\n' "$have" | grep -qxF -e "$opt"; then
      echo "$me: $page: option $opt of 'kf3ds help $verb' is missing from the section '$verb'" >&2
      missing=$((missing + 1))
    fi
  done
done

have=$(printf '%s\n' "$text" | options)
for opt in $("$tool" --help | options); do
  checked=$((checked + 1))
  if ! printf '%s\n' "$have" | grep -qxF -e "$opt"; then
    echo "$me: $page: option $opt of 'kf3ds --help' is missing from the page" >&2
    missing=$((missing + 1))
  fi
done

# The page must also format without warnings, where groff is installed.
if command -v groff >/dev/null 2>&1; then
  warnings=$(groff -man -ww -z "$page" 2>&1)
  if [ -n "$warnings" ]; then
    printf '%s\n' "$warnings" | sed "s|^|$me: |" >&2
    missing=$((missing + 1))
  fi
fi

if [ "$missing" -ne 0 ]; then
  echo "$me: $missing problem(s) in $page" >&2
  exit 1
fi
echo "$me: $page lists all $checked options of $(echo $verbs | wc -w) verbs and the overview"
