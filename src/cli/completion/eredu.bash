# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The eredu authors

# Bash completion of the `eredu` command (docs/man/eredu.1), installed as
# share/bash-completion/completions/eredu. It completes the commands, each
# command's flags, the values of the flags that take a fixed set of words,
# and file or folder names where a path is expected. A new command is one
# entry in _eredu_flags (and its path arguments in _eredu_complete_value and
# _eredu_positional); tests/cli/test_completion.py checks the tables against
# `eredu --help`.

# The flags of each command.
declare -gA _eredu_flags=(
  [plan]="--help --groups --tp --pp --pp-layers --ep --dp --rank --rank-from-env --all-ranks
          --output --policy --format"
  [describe]="--help --pad-vocab --config-only --format"
  [check]="--help --tp --pp --pp-layers --ep --pad-vocab --config-only --policy --residency
           --device-budget --host-budget --prefetch-depth --host-lookahead --queue-capacity
           --expert-cache --format"
  [fit]="--help --groups --pad-vocab --config-only --policy --residency --device-budget
         --host-budget --prefetch-depth --host-lookahead --queue-capacity --expert-cache
         --max-world --format"
  [read-plan]="--help --groups --tp --pp --pp-layers --ep --dp --rank --rank-from-env
               --all-ranks --pad-vocab --policy --format"
  [load]="--help --groups --tp --pp --pp-layers --ep --dp --rank --rank-from-env --pad-vocab
          --policy --threads --direct --cold --max-gap"
  [residency]="--help --policy"
  [inspect]="--help --rank --groups --format"
)
# The flags before a command.
_eredu_global_flags="--help --version"
# The flags that take no value.
_eredu_switches=" --help --version --all-ranks --rank-from-env --config-only --direct --cold "

# Sets COMPREPLY to the words compgen ARGS... prints, one a line (so file
# names with spaces stay whole).
_eredu_reply() {
  mapfile -t COMPREPLY < <(compgen "$@")
}

# Sets COMPREPLY to the values of FLAG of COMMAND that start with CUR.
_eredu_complete_value() {
  local command=$1 flag=$2 cur=$3
  local words=""
  case "$command $flag" in
    "describe --format") words="json" ;;
    *" --format") words="table json" ;;
    "residency --policy") _eredu_complete_files "$cur" && return ;;
    *" --policy") words="require require-even replicate-unsupported" ;;
    *" --residency") words="fully-resident layerwise-host dense-disk-stream" ;;
    *" --groups" | "plan --output") _eredu_complete_files "$cur" && return ;;
  esac
  _eredu_reply -W "$words" -- "$cur"
}

# Sets COMPREPLY to the file and folder names that start with CUR.
_eredu_complete_files() {
  compopt -o filenames 2>/dev/null
  _eredu_reply -f -- "$1"
}

# The positional argument of COMMAND: a model folder or checkpoint file.
_eredu_positional() {
  case "$1" in
    describe | check | fit | read-plan | load | inspect) _eredu_complete_files "$2" ;;
    *) COMPREPLY=() ;;
  esac
}

_eredu() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev="" i command=""
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  # --flag=value: bash splits it into --flag, = and value.
  if [[ $cur == "=" ]]; then
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    cur=""
  elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
    prev=${COMP_WORDS[COMP_CWORD - 2]}
  fi

  for ((i = 1; i < COMP_CWORD; ++i)); do
    if [[ -n ${_eredu_flags[${COMP_WORDS[i]}]+set} ]]; then
      command=${COMP_WORDS[i]}
      break
    fi
  done

  if [[ -z $command ]]; then
    if [[ $cur == -* ]]; then
      _eredu_reply -W "$_eredu_global_flags" -- "$cur"
    else
      _eredu_reply -W "${!_eredu_flags[*]}" -- "$cur"
    fi
    return 0
  fi

  if [[ $prev == --* && $_eredu_switches != *" $prev "* && $prev != "$command" ]]; then
    _eredu_complete_value "$command" "$prev" "$cur"
    return 0
  fi
  if [[ $cur == -* ]]; then
    _eredu_reply -W "${_eredu_flags[$command]}" -- "$cur"
  else
    _eredu_positional "$command" "$cur"
  fi
  return 0
}

complete -F _eredu eredu
