# plan-yaml-flat.awk: flatten a YAML document as kubectl-dra writes it
# (block style, two-space indentation, lists at their key's indentation,
# "|" block scalars) into one "path=value" line per scalar, for tests
# that assert single fields:
#
#   status.summary.gpus.used=15
#   status.teams[0].quota.hard.count/resourceclaims.resource.k8s.io=14
#
# Strings lose their quotes and tags ("14" and 14 print alike), a block
# scalar becomes one value whose lines are joined by a literal \n, and
# empty collections print as [] and {}.  plan-json-flat.awk prints a JSON
# document the same way, so the two can be compared.
function unq(v) {
	# The non-specific tag "!" (kubectl-dra writes "! 'a: b'" for a
	# string with ": ") changes nothing: the value is the string.
	if (v ~ /^! ["']/)
		v = substr(v, 3)
	if (v ~ /^".*"$/) {
		v = substr(v, 2, length(v) - 2)
		gsub(/\\"/, "\"", v)
		gsub(/\\\\/, "\\", v)
	} else if (v ~ /^'.*'$/) {
		v = substr(v, 2, length(v) - 2)
		gsub(/''/, "'", v)
	}
	return v
}
function flush_block() {
	if (inblock) {
		print blockpath "=" blockval
		inblock = 0
	}
}
# One "key: value" or "key:" at indentation ind, under path base[ind].
function keyval(ind, s,    k, v, p, i) {
	i = index(s, ":")
	k = substr(s, 1, i - 1)
	v = substr(s, i + 1)
	sub(/^ /, "", v)
	p = base[ind] == "" ? k : base[ind] "." k
	for (d in base)
		if (d + 0 > ind)
			delete base[d]
	for (d in pend)
		if (d + 0 >= ind)
			delete pend[d]
	if (v == "") {
		pend[ind] = p
		idx[ind] = -1
		base[ind + 2] = p
	} else if (v ~ /^\|-?$/) {
		inblock = 1
		blockpath = p
		blockval = ""
		blockind = -1
		blockchomp = (v == "|-")
		blockparent = ind
	} else
		print p "=" unq(v)
}
{
	line = $0
	if (inblock) {
		match(line, /^ */)
		if (line ~ /^ *$/ || RLENGTH > blockparent) {
			if (blockind < 0)
				blockind = RLENGTH
			blockval = blockval substr(line, blockind + 1) \
			    (blockchomp ? "" : "\\n")
			next
		}
		flush_block()
	}
	if (line ~ /^ *$/ || line ~ /^ *#/ || line == "---")
		next
	match(line, /^ */)
	ind = RLENGTH
	s = substr(line, ind + 1)
	while (s ~ /^- /) {
		if (!(ind in pend)) {
			print "plan-yaml-flat: line " NR ": list item without a key" \
			    > "/dev/stderr"
			exit 1
		}
		idx[ind]++
		item = pend[ind] "[" idx[ind] "]"
		for (d in base)
			if (d + 0 > ind)
				delete base[d]
		s = substr(s, 3)
		if (s !~ /^[^ "'][^ ]*:( |$)/) {
			print item "=" unq(s)
			next
		}
		base[ind + 2] = item
		ind += 2
	}
	if (s ~ /^[^ "'][^ ]*:( |$)/)
		keyval(ind, s)
	else {
		print "plan-yaml-flat: line " NR ": cannot read: " line \
		    > "/dev/stderr"
		exit 1
	}
}
END {
	flush_block()
}
