# SPDX-License-Identifier: GPL-2.0
# bash completion for ssdload: commands, and each command's options as its
# --help lists them (so they cannot drift), with values where they are a
# known set (--rw, --output-format, --profile, ...) and file names else.

_ssdload_opts()
{
	"$1" "$2" --help 2>/dev/null | grep -oE -- '--[A-Za-z0-9][A-Za-z0-9_+-]*(\[?=)?' |
		sed 's/\[=$/=/' | sort -u
}

_ssdload()
{
	local cur prev cmd opt val words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
	local bin=${words[0]}

	COMPREPLY=()
	cur=${words[cword]}
	# "--opt=val" arrives as "--opt" "=" "val" (= is a word break)
	if [[ $cur == = ]]; then
		opt=${words[cword - 1]} val=
	elif [[ ${words[cword - 1]} == = && $cword -ge 2 ]]; then
		opt=${words[cword - 2]} val=$cur
	elif [[ $cur == --*=* ]]; then
		opt=${cur%%=*} val=${cur#*=}
	fi
	if [[ $cword -eq 1 ]]; then
		COMPREPLY=($(compgen -W "$("$bin" --help 2>/dev/null |
			awk '/^   [a-z]/ { print $1 }') help --help --version" -- "$cur"))
		return
	fi
	cmd=${words[1]}
	if [[ -n $opt ]]; then
		case $opt in
		--rw|--readwrite)
			COMPREPLY=($(compgen -W "read write randread randwrite rw randrw trim
				randtrim trimwrite randtrimwrite" -- "$val")) ;;
		--trace-format)
			COMPREPLY=($(compgen -W "auto blktrace msr alibaba iolog2 iolog3" \
				-- "$val")) ;;
		--output-format)
			COMPREPLY=($(compgen -W "normal json json+ normal,json normal,json+" \
				-- "$val")) ;;
		--profile)
			COMPREPLY=($(compgen -W "$("$bin" profiles --names 2>/dev/null)" -- "$val")) ;;
		--eta)
			COMPREPLY=($(compgen -W "auto always never" -- "$val")) ;;
		--kb_base)
			COMPREPLY=($(compgen -W "1024 1000" -- "$val")) ;;
		--rate_process)
			COMPREPLY=($(compgen -W "poisson linear" -- "$val")) ;;
		--filename)
			COMPREPLY=($(compgen -f -- "${val:-/dev/}")) ;;
		*)
			COMPREPLY=($(compgen -f -- "$val")) ;;
		esac
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_ssdload_opts "$bin" "$cmd")" -- "$cur"))
		[[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	case $cmd in
	help)
		COMPREPLY=($(compgen -W "$("$bin" --help 2>/dev/null |
			awk '/^   [a-z]/ { print $1 }')" -- "$cur")) ;;
	*)
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}
complete -F _ssdload ssdload
