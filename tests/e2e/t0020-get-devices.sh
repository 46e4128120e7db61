#!/usr/bin/env bash
# t0020-get-devices: `kubectl dra get devices -A` against the
# ResourceSlices and the claims' allocations, read with kubectl:
#   - exactly the devices the slices of each pool's newest generation
#     publish (as a set DRIVER/POOL/DEVICE, so also the count), each
#     once, on the slice's node;
#   - every device named in a claim's status.allocation shows state
#     allocated and that claim (NAMESPACE/NAME) as its holder;
#   - every other device shows no holder and is not allocated.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$here/lib.sh"

# driver pool generation device node: one line per published device.
# shellcheck disable=SC2016
slices_tmpl='{{range .items}}{{$s := .spec}}{{range .spec.devices}}{{$s.driver}} {{$s.pool.name}} {{$s.pool.generation}} {{.name}} {{if $s.nodeName}}{{$s.nodeName}}{{else}}-{{end}}{{"\n"}}{{end}}{{end}}'
# driver/pool/device ns/claim: one line per allocated device.
# shellcheck disable=SC2016
alloc_tmpl='{{range .items}}{{$c := printf "%s/%s" .metadata.namespace .metadata.name}}{{with .status}}{{with .allocation}}{{with .devices}}{{range .results}}{{.driver}}/{{.pool}}/{{.device}} {{$c}}{{"\n"}}{{end}}{{end}}{{end}}{{end}}{{end}}'

run slices kubectl get resourceslices -o go-template="$slices_tmpl" || finish
run alloc kubectl get resourceclaims -A -o go-template="$alloc_tmpl" || finish

# Newest generation per (driver, pool).
awk '{ k = $1 "/" $2; if (!(k in gen) || $3 > gen[k]) gen[k] = $3; line[NR] = $0 }
	END { for (i = 1; i <= NR; i++) { split(line[i], f, " "); if (f[3] == gen[f[1] "/" f[2]]) print f[1] "/" f[2] "/" f[4], f[5] } }' \
	"$T/slices.out" | sort >"$T/published"
ndev=$(wc -l <"$T/published")
[ "$ndev" -gt 0 ] || fail "no ResourceSlice publishes a device: was the example loaded?"
sort "$T/alloc.out" >"$T/alloc"
nalloc=$(cut -d ' ' -f 1 "$T/alloc" | sort -u | wc -l)

if run dev kubectl dra get devices -A; then
	table_tsv <"$T/dev.out" | columns NODE DRIVER POOL DEVICE STATE CLAIM >"$T/dev.tsv"
	rows=$(wc -l <"$T/dev.tsv")
	[ "$rows" = "$ndev" ] ||
		fail "get devices -A lists $rows devices; the slices of the newest generations publish $ndev"

	# The set of devices and their nodes.
	awk -F '\t' '{ print $2 "/" $3 "/" $4, $1 }' "$T/dev.tsv" | sort >"$T/got.published"
	check_same "devices (DRIVER/POOL/DEVICE NODE) vs the ResourceSlices" "$T/published" "$T/got.published"
	dups=$(cut -d ' ' -f 1 "$T/got.published" | uniq -d)
	[ -z "$dups" ] || fail "devices listed more than once: $dups"

	# Holders: expected from the claims, got from the table.
	awk '{ h[$1] = h[$1] (h[$1] != "" ? "," : "") $2 }
		END { for (d in h) print d, h[d] }' "$T/alloc" | sort >"$T/want.holders"
	awk -F '\t' '{
		d = $2 "/" $3 "/" $4
		n = split($5, st, ","); alloc = 0
		for (i = 1; i <= n; i++) if (st[i] == "allocated") alloc = 1
		if (alloc || $6 != "-") print d, $6, (alloc ? "allocated" : "state=" $5)
	}' "$T/dev.tsv" | sort >"$T/got.holders.raw"
	# Expected: "device holders allocated" for every allocated device.
	awk '{ print $0, "allocated" }' "$T/want.holders" >"$T/want.holders.full"
	check_same "allocated devices: holder and state vs status.allocation (devices that are free show up with a '-' holder or a non-allocated state)" \
		"$T/want.holders.full" "$T/got.holders.raw"
	if [ -s "$T/dev.err" ]; then
		fail "get devices -A wrote to stderr on a consistent cluster:"
		sed -n '1,10p' "$T/dev.err"
	fi
fi

echo "$ndev devices published, $nalloc allocated"
finish
