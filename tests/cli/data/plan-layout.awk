# plan-layout.awk: the layout of a Plan, one line per GPU, from the
# "path=value" lines of plan-yaml-flat.awk or plan-json-flat.awk:
#
#   NODE/GPU STATE [migConfig NAME] [changed] [rebuilt]: INSTANCE, ...
#
# where an instance is PROFILE@START then its owner: NS/WORKLOAD (xN when
# it serves N replicas), "running NS/CLAIM DEVICE", "moved NS/CLAIM",
# or "spare".  Instances are listed in their arrival order.
function flush(    s, i) {
	if (g == "")
		return
	s = node[gl] "/" f["name"] " " f["state"]
	if (f["migConfig"] != "")
		s = s " migConfig " f["migConfig"]
	if (f["changed"] == "true")
		s = s " changed"
	if (f["rebuilt"] == "true")
		s = s " rebuilt"
	s = s ":"
	for (i = 0; i <= ni; i++) {
		if (!(i in inst))
			continue
		s = s (i ? ", " : " ") inst[i]
	}
	print s
	g = ""
	split("", f)
	split("", inst)
	split("", o)
	ni = -1
}
function flush_inst(    k, w) {
	if (cur < 0)
		return
	k = o["owner.kind"]
	w = o["profile"] "@" o["start"]
	if (k == "workload") {
		w = w " " o["owner.namespace"] "/" o["owner.workload"]
		if (o["owner.replicas"] > 1)
			w = w " x" o["owner.replicas"]
	} else if (k == "running")
		w = w " running " o["owner.namespace"] "/" o["owner.claim"] \
		    " " o["device"]
	else if (k == "moved")
		w = w " moved " o["owner.namespace"] "/" o["owner.claim"]
	else
		w = w " " k
	inst[cur] = w
	if (cur > ni)
		ni = cur
	split("", o)
	cur = -1
}
BEGIN {
	g = ""
	cur = -1
	ni = -1
}
/^status\.layout\[[0-9]+\]\.node=/ {
	flush_inst()
	flush()
	match($0, /^status\.layout\[[0-9]+\]/)
	l = substr($0, 15, RLENGTH - 15)
	node[l] = substr($0, index($0, "=") + 1)
	next
}
/^status\.layout\[[0-9]+\]\.gpus\[[0-9]+\]\./ {
	match($0, /^status\.layout\[[0-9]+\]\.gpus\[[0-9]+\]/)
	key = substr($0, 1, RLENGTH)
	rest = substr($0, RLENGTH + 2)
	if (key != g) {
		flush_inst()
		flush()
		g = key
		gl = substr(key, 15)
		sub(/\].*/, "", gl)
	}
	eq = index(rest, "=")
	name = substr(rest, 1, eq - 1)
	val = substr(rest, eq + 1)
	if (name ~ /^instances\[[0-9]+\]\./) {
		i = substr(name, 11)
		sub(/\].*/, "", i)
		if (i + 0 != cur) {
			flush_inst()
			cur = i + 0
		}
		sub(/^instances\[[0-9]+\]\./, "", name)
		o[name] = val
	} else
		f[name] = val
	next
}
END {
	flush_inst()
	flush()
}
