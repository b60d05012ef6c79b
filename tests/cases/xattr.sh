# Extended attributes: user and trusted namespaces, in-block sharing, removal.
: > a; : > b
setfattr -n user.color -v blue a
setfattr -n user.big -v "$(printf 'v%.0s' $(seq 1 500))" a
setfattr -n trusted.t -v secret a
setfattr -n user.color -v blue b
fs_cycle
expect_eq "$(getfattr --only-values -n user.color a)" blue "user xattr"
expect_eq "$(getfattr --only-values -n user.big a | wc -c)" 500 "large xattr"
expect_eq "$(getfattr --only-values -n trusted.t a)" secret "trusted xattr"
expect_eq "$(getfattr --only-values -n user.color b)" blue "second file"
setfattr -x user.color a
expect_fail "No such attribute" getfattr -n user.color a
fs_cycle
expect_fail "No such attribute" getfattr -n user.color a
expect_eq "$(getfattr --only-values -n user.big a | wc -c)" 500 "xattr kept after removing another"
