# bash completion for bench. Installed as share/bash-completion/completions/bench (loaded on demand by the
# bash-completion package), or source it: `. completion/bench.bash`.
#
# Everything is read from the bench being completed, so a new command, option or suite needs no edit here:
#   commands          from `bench help` (the lines under "commands:")
#   options           from `bench CMD --help`: the item lines that start with '-'; an option followed by a
#                     placeholder (PATH, KEY=VALUE, text|json) takes an argument; a|b|c placeholders are values
#   subcommands       from the usage lines of `bench CMD --help` (bench profiles list, bench lab up N, ...)
#   suite names       from `bench profiles list`, after run, plan and profiles show; commands after help
#   --db              *.db files and directories; other option arguments and operands: files and directories

# The bench being completed: the command word as typed (build/bench, ~/bin/bench), else bench from PATH.
_bench_bin()
{
	local b=${COMP_WORDS[0]}

	[[ $b == "~/"* ]] && b=$HOME/${b#"~/"}
	if [[ $b == */* && -x $b ]]; then
		printf '%s\n' "$b"
	else
		printf '%s\n' "${b:-bench}"
	fi
}

_bench_commands()
{
	"$1" help 2>/dev/null | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}'
}

# One line per option of command $2: "OPTION ARG", ARG being the placeholder or "-" for an option without one;
# first those whose values the synopsis lists ([--format text|csv|json]).
_bench_options()
{
	"$1" "$2" --help 2>/dev/null | awk '
		NR == 1 { usage = 1 }
		/^$/ { usage = 0 }
		usage {
			# [--format text|csv|json] in the synopsis: the values of the option
			n = split($0, w, /[] []+/)
			for (i = 1; i < n; i++)
				if (w[i] ~ /^--[a-z]/ && w[i + 1] ~ /^[a-z]+(\|[a-z]+)+$/)
					print w[i], w[i + 1]
			next
		}
		/^ +-/ {
			n = split($0, w, /[ ,]+/)
			k = 0; arg = "-"
			for (i = 1; i <= n; i++) {
				if (w[i] == "")
					continue
				if (w[i] ~ /^-/)
					opt[++k] = w[i]
				else if (k && (w[i] ~ /[A-Z|=:]/ || w[i] ~ /\[/)) {
					arg = w[i]
					break
				} else
					break
			}
			for (i = 1; i <= k; i++)
				print opt[i], arg
		}'
}

# The subcommands of command $2 ("bench profiles list", "bench hosts check|start|stop ..."), one a line.
_bench_subcommands()
{
	"$1" "$2" --help 2>/dev/null | awk -v c="$2" '
		/^(usage: |       )bench / {
			line = $0
			sub(/^(usage: |       )bench /, "", line)
			n = split(line, w, / +/)
			if (w[1] == c && w[2] ~ /^[a-z][a-z|]*$/) {
				m = split(w[2], s, "|")
				for (i = 1; i <= m; i++)
					print s[i]
			}
		}
		/^$/ && NR > 1 {exit}'
}

_bench_suites()
{
	"$1" profiles list 2>/dev/null | awk 'NR > 1 && $1 ~ /^[A-Za-z0-9][-A-Za-z0-9_.]*$/ {print $1}'
}

# Files and directories matching the glob $1 (default: all) into COMPREPLY.
_bench_files()
{
	local pattern=${1:-}

	compopt -o filenames 2>/dev/null
	if [[ -n $pattern ]]; then
		mapfile -t COMPREPLY < <(compgen -f -X "!$pattern" -- "$cur"; compgen -d -- "$cur")
	else
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	fi
}

_bench()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev="" bin cmd opts arg i sub="" npos=0

	COMPREPLY=()
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	bin=$(_bench_bin)
	if ((COMP_CWORD == 1)); then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W '--help --version' -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$(_bench_commands "$bin")" -- "$cur")
		fi
		return 0
	fi
	cmd=${COMP_WORDS[1]}
	opts=$(_bench_options "$bin" "$cmd")

	# The argument of an option.
	if [[ $prev == -* ]]; then
		arg=$(awk -v o="$prev" '$1 == o {print $2; exit}' <<<"$opts")
		if [[ $prev == --db ]]; then
			_bench_files '*.db'
			return 0
		fi
		if [[ -n $arg && $arg != - ]]; then
			if [[ $arg =~ ^[a-z]+(\|[a-z]+)+$ ]]; then
				mapfile -t COMPREPLY < <(compgen -W "${arg//|/ }" -- "$cur")
			else
				_bench_files
			fi
			return 0
		fi
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(awk '!seen[$1]++ {print $1}' <<<"$opts")" -- "$cur")
		return 0
	fi

	# Operands: the first may be a subcommand; run and plan take suites (and files), profiles show a suite.
	for ((i = 2; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -* ]]; then
			arg=$(awk -v o="${COMP_WORDS[i]}" '$1 == o {print $2; exit}' <<<"$opts")
			[[ -n $arg && $arg != - ]] && ((i++))
		else
			((npos == 0)) && sub=${COMP_WORDS[i]}
			((npos++))
		fi
	done
	if ((npos == 0)); then
		local subs
		subs=$(_bench_subcommands "$bin" "$cmd")
		if [[ -n $subs ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$subs" -- "$cur")
			return 0
		fi
	fi
	case $cmd in
	run | plan)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -W "$(_bench_suites "$bin")" -- "$cur"; compgen -f -- "$cur")
		;;
	help)
		((npos == 0)) && mapfile -t COMPREPLY < <(compgen -W "$(_bench_commands "$bin")" -- "$cur")
		;;
	profiles)
		[[ $sub == show && $npos -eq 1 ]] && mapfile -t COMPREPLY < <(compgen -W "$(_bench_suites "$bin")" -- "$cur")
		;;
	*)
		_bench_files
		;;
	esac
	return 0
}
complete -F _bench bench
