# plan-migconfig.awk: check a Plan's mig-parted configuration against its
# layout, from the "path=value" lines of plan-yaml-flat.awk: every GPU
# with a migConfig must find, in the ConfigMap's config.yaml under that
# name, an entry for its index (N of gpu-N) that creates exactly its
# planned instances (running and spare ones included), or has MIG off
# for a whole GPU and for an unused GPU in whole mode; and its node must
# carry the label nvidia.com/mig.config with that name.  Prints one line
# per GPU that does not match, then a count.
function sorted(s,    a, n, i, j, t, r) {
	n = split(s, a, ",")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]
			a[j] = a[j - 1]
			a[j - 1] = t
		}
	r = ""
	for (i = 1; i <= n; i++)
		if (a[i] != "")
			r = r (r == "" ? "" : ",") a[i]
	return r
}
function val() {
	return substr($0, index($0, "=") + 1)
}
/^status\.layout\[[0-9]+\]\.node=/ {
	l = $0
	sub(/^status\.layout\[/, "", l)
	sub(/\].*/, "", l)
	node[l] = val()
	next
}
/^status\.layout\[[0-9]+\]\.gpus\[[0-9]+\]\./ {
	k = $0
	sub(/^status\.layout\[/, "", k)
	l = k
	sub(/\].*/, "", l)
	sub(/^[0-9]+\]\.gpus\[/, "", k)
	g = k
	sub(/\].*/, "", g)
	id = l SUBSEP g
	if (!(id in seen)) {
		seen[id] = 1
		order[++ngpus] = id
		gnode[id] = l
	}
	sub(/^[0-9]+\]\./, "", k)
	f = substr(k, 1, index(k, "=") - 1)
	if (f == "name" || f == "mode" || f == "migConfig")
		gf[id, f] = val()
	else if (f ~ /^instances\[[0-9]+\]\.profile$/) {
		p = val()
		if (p == "gpu")
			whole[id] = 1
		else
			cnt[id, p]++
		if (!((id, p) in listed)) {
			listed[id, p] = 1
			profs[id] = profs[id] " " p
		}
	}
	next
}
/^status\.nodeLabels\[[0-9]+\]\.node=/ {
	ln = val()
	next
}
/^status\.nodeLabels\[[0-9]+\]\.labels\.nvidia\.com\/mig\.config=/ {
	label[ln] = val()
	next
}
/^status\.manifests\[[0-9]+\]\.data\.config\.yaml=/ {
	text = val()
	next
}
END {
	# The configurations: entry[name, index] = "off" or "on:P=N,...".
	n = split(text, lines, /\\n/)
	for (i = 1; i <= n; i++) {
		s = lines[i]
		if (s ~ /^  [^ -][^:]*:$/) {
			name = s
			sub(/^  /, "", name)
			sub(/:$/, "", name)
			continue
		}
		if (s ~ /^  - devices: /) {
			split("", devs)
			d = s
			sub(/^  - devices: /, "", d)
			gsub(/[][ ]/, "", d)
			nd = split(d, devs, ",")
			continue
		}
		if (s ~ /^    mig-enabled: /) {
			on = (s ~ /true$/)
			for (j = 1; j <= nd; j++)
				entry[name, devs[j]] = on ? "on:" : "off"
			continue
		}
		if (s ~ /^      "[^"]+": [0-9]+$/) {
			p = s
			sub(/^      "/, "", p)
			c = p
			sub(/".*/, "", p)
			sub(/.*: /, "", c)
			for (j = 1; j <= nd; j++)
				entry[name, devs[j]] = entry[name, devs[j]] \
				    (entry[name, devs[j]] == "on:" ? "" : ",") \
				    p "=" c
		}
	}
	ok = 0
	bad = 0
	for (i = 1; i <= ngpus; i++) {
		id = order[i]
		cfg = gf[id, "migConfig"]
		if (cfg == "")
			continue
		nm = gf[id, "name"]
		idx = nm
		if (idx !~ /^gpu-[0-9]+$/) {
			print node[gnode[id]] "/" nm ": not named gpu-N"
			bad++
			continue
		}
		sub(/^gpu-/, "", idx)
		if (whole[id] || (profs[id] == "" && gf[id, "mode"] == "whole"))
			want = "off"
		else {
			want = ""
			m = split(profs[id], pa, " ")
			for (j = 1; j <= m; j++)
				want = want "," pa[j] "=" cnt[id, pa[j]]
			want = "on:" sorted(want)
		}
		got = entry[cfg, idx]
		if (got ~ /^on:/)
			got = "on:" sorted(substr(got, 4))
		if (got != want || label[node[gnode[id]]] != cfg) {
			print node[gnode[id]] "/" nm ": plans " want ", " cfg \
			    " gives " (got == "" ? "nothing" : got) \
			    ", node label " label[node[gnode[id]]]
			bad++
		} else
			ok++
	}
	print ok " GPUs match their mig-parted configuration, " bad " do not"
}
