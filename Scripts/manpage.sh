#!/usr/bin/env bash
# A man page for one of the CLIs, from its own --help (so the page says what the program says), for
# the soundstation-tools package. Usage: Scripts/manpage.sh BINARY VERSION >NAME.1
set -euo pipefail
binary=$1
version=$2
name=$(basename "$binary")
case "$name" in
soundstation) what="play, render and check a game's catalogue of sounds" ;;
soundstation-assets) what="synthesise SoundStation's demo sounds from code" ;;
voicenote) what="record, list and play voice notes" ;;
starfall) what="a terminal game with music and sound effects, SoundStation's demo" ;;
*) what="a SoundStation tool" ;;
esac
help=$("$binary" --help 2>&1 || true)
upper=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')
echo ".TH $upper 1 \"$(date -u -d "@${SOURCE_DATE_EPOCH:-0}" +%Y-%m-%d)\" \"soundstation $version\" \"User Commands\""
echo ".SH NAME"
echo "$name \\- $what"
echo ".SH DESCRIPTION"
echo "What \\fB$name \\-\\-help\\fR prints:"
echo ".PP"
echo ".nf"
# roff: backslashes doubled, a leading dot or quote escaped.
printf '%s\n' "$help" | sed -e 's/\\/\\\\/g' -e "s/^\([.']\)/\\\\\&\1/"
echo ".fi"
echo ".SH SEE ALSO"
echo "The SoundStation documentation: https://github.com/soundstation/soundstation"
