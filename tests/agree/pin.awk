# pin.awk -v keep=NODE: a `kubectl-dra snapshot` YAML List (stdin or a
# file) without the Nodes other than NODE, so that `why --from` answers
# for NODE alone: the devices its first fit takes there.  Every other
# item is kept as it is (the slices of the dropped nodes then reach no
# node).  Items are the "- " entries of the top-level items: list.
function flush() {
	if (buf != "" && !(isnode && name != keep))
		printf "%s", buf
	buf = ""; isnode = 0; name = ""
}
/^- / { flush() }
/^[^ -]/ { flush(); print; next }
{ buf = buf $0 "\n" }
/^  kind: Node$/ { isnode = 1 }
isnode && name == "" && /^    name: / { name = $2 }
END { flush() }
