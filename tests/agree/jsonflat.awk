# jsonflat.awk: one JSON document on stdin (any layout) -> one line per
# scalar, "PATH<TAB>VALUE", where PATH joins object keys and array
# indexes (from 0) with dots and VALUE is the scalar as written, strings
# without their quotes (\" \\ \/ \n \t decoded; other escapes kept).
#
#   {"a": {"b": [1, "x"]}, "c": null}   ->   a.b.0<TAB>1
#                                            a.b.1<TAB>x
#                                            c<TAB>null
#
# Used by tests/agree/run and regress.sh to read `kubectl-dra why -o json`
# without jq.  Plain POSIX awk.
BEGIN { RS = "\001" }
{
	s = $0
	n = length(s)
	depth = 0
	i = 1
	while (i <= n) {
		c = substr(s, i, 1)
		if (c == "{" || c == "[") {
			depth++
			type[depth] = c
			idx[depth] = 0
			key[depth] = ""
			expect_key[depth] = (c == "{")
			i++
		} else if (c == "}" || c == "]") {
			depth--
			i++
		} else if (c == ",") {
			if (type[depth] == "[")
				idx[depth]++
			else
				expect_key[depth] = 1
			i++
		} else if (c == ":") {
			expect_key[depth] = 0
			i++
		} else if (c == "\"") {
			j = i + 1
			v = ""
			while (j <= n) {
				d = substr(s, j, 1)
				if (d == "\\") {
					e = substr(s, j + 1, 1)
					if (e == "\"" || e == "\\" || e == "/")
						v = v e
					else if (e == "n")
						v = v "\n"
					else if (e == "t")
						v = v "\t"
					else
						v = v "\\" e
					j += 2
					continue
				}
				if (d == "\"")
					break
				v = v d
				j++
			}
			i = j + 1
			if (depth > 0 && type[depth] == "{" && expect_key[depth])
				key[depth] = v
			else
				emit(v)
		} else if (c ~ /[-0-9tfn]/) {
			j = i
			while (j <= n && substr(s, j, 1) ~ /[-+0-9.eEa-z]/)
				j++
			emit(substr(s, i, j - i))
			i = j
		} else {
			i++
		}
	}
}

function emit(v,    p, k) {
	p = ""
	for (k = 1; k <= depth; k++)
		p = p (k > 1 ? "." : "") (type[k] == "{" ? key[k] : idx[k])
	gsub(/\n/, "\\n", v)
	printf "%s\t%s\n", p, v
}
