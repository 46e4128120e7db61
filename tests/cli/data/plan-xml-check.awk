# plan-xml-check.awk: check that standard input is a well-formed XML
# document whose root is an SVG 1.1 <svg> element, without xmllint or
# python (the suite needs neither): an optional XML declaration first,
# then every tag closed in order, one root element, attributes quoted and
# not repeated in a tag, no '<' in attribute values or text, every '&'
# an entity (&amp; &lt; &gt; &quot; &apos; &#N; &#xN;), and only
# whitespace around the root.  Prints "well-formed: N elements, M
# <title>s" and counts of the classes the picture uses, or the first
# problem with its offset, and exits 1.
function fail(why) {
	printf "not well-formed at byte %d: %s\n", pos, why
	bad = 1
	exit 1
}
function check_text(t, what,    r) {
	if (index(t, "<") > 0)
		fail("'<' in " what)
	r = t
	gsub(/&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/, "", r)
	if (index(r, "&") > 0)
		fail("a bare '&' in " what)
}
{
	doc = doc $0 "\n"
}
END {
	if (bad)
		exit 1
	pos = 1
	if (substr(doc, 1, 5) == "<?xml") {
		e = index(doc, "?>")
		if (e == 0)
			fail("the XML declaration is not closed")
		decl = substr(doc, 1, e + 1)
		if (decl !~ /^<\?xml version="1\.[01]"( encoding="[A-Za-z0-9._-]+")?( standalone="(yes|no)")? *\?>$/)
			fail("bad XML declaration " decl)
		pos = e + 2
	}
	depth = 0
	nel = 0
	roots = 0
	while (pos <= length(doc)) {
		rest = substr(doc, pos)
		lt = index(rest, "<")
		if (lt == 0) {
			text = rest
			lt = length(rest) + 1
		} else
			text = substr(rest, 1, lt - 1)
		if (depth == 0 && text !~ /^[ \t\r\n]*$/)
			fail("text outside the root element")
		check_text(text, "text")
		pos += lt - 1
		if (lt > length(rest))
			break
		rest = substr(doc, pos)
		if (substr(rest, 1, 4) == "<!--") {
			e = index(substr(rest, 5), "-->")
			if (e == 0)
				fail("a comment is not closed")
			pos += 4 + e + 2
			continue
		}
		gt = index(rest, ">")
		if (gt == 0)
			fail("a tag is not closed")
		tag = substr(rest, 2, gt - 2)
		if (tag ~ /^\//) {
			name = substr(tag, 2)
			sub(/[ \t\r\n]+$/, "", name)
			if (depth == 0 || stack[depth] != name)
				fail("</" name "> closes " (depth ? "<" stack[depth] ">" : "nothing"))
			depth--
			pos += gt
			continue
		}
		empty = 0
		if (tag ~ /\/$/) {
			empty = 1
			tag = substr(tag, 1, length(tag) - 1)
		}
		if (!match(tag, /^[A-Za-z_:][-A-Za-z0-9._:]*/))
			fail("bad element name in <" tag ">")
		name = substr(tag, 1, RLENGTH)
		attrs = substr(tag, RLENGTH + 1)
		split("", seen)
		while (attrs !~ /^[ \t\r\n]*$/) {
			if (!match(attrs, /^[ \t\r\n]+[A-Za-z_:][-A-Za-z0-9._:]*[ \t\r\n]*=[ \t\r\n]*("[^"]*"|'[^']*')/))
				fail("bad attribute in <" name ">: " attrs)
			a = substr(attrs, 1, RLENGTH)
			attrs = substr(attrs, RLENGTH + 1)
			an = a
			sub(/^[ \t\r\n]+/, "", an)
			av = an
			sub(/[ \t\r\n]*=.*/, "", an)
			sub(/^[^=]*=[ \t\r\n]*/, "", av)
			av = substr(av, 2, length(av) - 2)
			if (an in seen)
				fail("attribute " an " twice in <" name ">")
			seen[an] = 1
			check_text(av, "attribute " an)
			if (depth == 0 && name == "svg")
				rootattr[an] = av
			if (an == "class")
				classes[name "." av]++
		}
		if (depth == 0) {
			roots++
			if (roots > 1)
				fail("a second root element <" name ">")
			root = name
		}
		nel++
		if (name == "title")
			titles++
		if (!empty)
			stack[++depth] = name
		pos += gt
	}
	if (depth > 0)
		fail("<" stack[depth] "> is not closed")
	if (roots != 1 || root != "svg")
		fail("the root element is <" root ">, not <svg>")
	if (rootattr["xmlns"] != "http://www.w3.org/2000/svg")
		fail("the root lacks xmlns=\"http://www.w3.org/2000/svg\"")
	if (rootattr["version"] != "1.1")
		fail("the root is not SVG version 1.1")
	printf "well-formed: %d elements, %d <title>s\n", nel, titles
	n = 0
	for (c in classes)
		keys[++n] = c
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && keys[j - 1] > keys[j]; j--) {
			t = keys[j]
			keys[j] = keys[j - 1]
			keys[j - 1] = t
		}
	for (i = 1; i <= n; i++)
		printf "  %s: %d\n", keys[i], classes[keys[i]]
}
