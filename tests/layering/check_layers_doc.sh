#!/usr/bin/env bash
# check_layers_doc.sh HOST_CMAKELISTS ARCHITECTURE_MD: the layers docs/architecture.md lists (the
# block after its "layers:" marker, one folder and the folders it links per line) are the
# dumpcmp_folder(NAME LINKS ...) calls of host/CMakeLists.txt, in the same order.
set -euo pipefail
cmake_file=$1 doc=$2
from_build=$(sed -nE 's/^dumpcmp_folder\(([a-z_]+)( LINKS ([a-z_ ]+))?\)$/\1 \3/p' "$cmake_file" |
  sed -E 's/ +$//')
from_doc=$(awk '/<!-- layers: /{on=1; next} on && /^```/{n++; if (n==2) exit; next} on && n==1' \
  "$doc" | sed -E 's/ <- / /; s/,//g; s/ +/ /g; s/ +$//')
if [[ -z $from_build ]]; then
  echo "no dumpcmp_folder(...) lines in $cmake_file" >&2
  exit 1
fi
if [[ "$from_build" != "$from_doc" ]]; then
  echo "$doc's layers differ from $cmake_file's (build <, doc >):" >&2
  diff <(echo "$from_build") <(echo "$from_doc") >&2 || true
  exit 1
fi
echo "$(echo "$from_build" | wc -l) layers as the build declares them"
