# plan-json-flat.awk: flatten a JSON document as kubectl-dra prints it
# (one member or element a line, containers opened at the end of a line
# and closed on their own line) into one "path=value" line per scalar,
# exactly as plan-yaml-flat.awk flattens the YAML form: strings lose
# their quotes and their escapes (\u0026 is &, \" is "; \n stays a
# literal \n), empty collections print as [] and {}.  Anything else is
# an error, so a document that is not well formed fails the test.
function unq(v) {
	if (v ~ /^".*"$/) {
		v = substr(v, 2, length(v) - 2)
		gsub(/\\u0026/, "\\&", v)
		gsub(/\\u003c/, "<", v)
		gsub(/\\u003e/, ">", v)
		gsub(/\\"/, "\"", v)
		gsub(/\\\\/, "\\", v)
	}
	return v
}
function here(k) {
	if (depth == 0)
		return k
	if (kind[depth] == "[") {
		n[depth]++
		return path[depth] "[" n[depth] "]"
	}
	return path[depth] == "" ? k : path[depth] "." k
}
function bad(why) {
	print "plan-json-flat: line " NR ": " why ": " $0 > "/dev/stderr"
	err = 1
	exit 1
}
{
	s = $0
	sub(/^[ \t]*/, "", s)
	sub(/,$/, "", s)
	if (s == "")
		next
	if (s == "}" || s == "]") {
		if (depth == 0 || (s == "}") != (kind[depth] == "{"))
			bad("unbalanced " s)
		depth--
		if (depth == 0)
			done = 1
		next
	}
	if (done)
		bad("text after the document")
	k = ""
	if (s ~ /^"([^"\\]|\\.)*": /) {
		if (depth == 0 || kind[depth] != "{")
			bad("a member outside an object")
		match(s, /^"([^"\\]|\\.)*": /)
		k = unq(substr(s, 1, RLENGTH - 2))
		s = substr(s, RLENGTH + 1)
	} else if (depth > 0 && kind[depth] == "{")
		bad("an object member without a key")
	p = here(k)
	if (s == "{" || s == "[") {
		depth++
		kind[depth] = s
		path[depth] = p
		n[depth] = -1
		next
	}
	if (s == "{}" || s == "[]" || s == "true" || s == "false" ||
	    s == "null" || s ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ ||
	    s ~ /^"([^"\\]|\\.)*"$/) {
		print p "=" unq(s)
		next
	}
	bad("not a JSON value")
}
END {
	if (!err && (depth != 0 || !done))
		bad("the document is not closed")
}
