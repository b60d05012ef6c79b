# POSIX ACLs: stored, inherited from a default ACL, and enforced.
: > f
setfacl -m u:1234:r-- f
mkdir d
setfacl -d -m u:1234:rwx d
: > d/child
fs_cycle
getfacl -p f | grep -q '^user:1234:r--' || fail "access ACL lost"
getfacl -p d/child | grep -q '^user:1234:rwx' || fail "default ACL not inherited"
chmod 600 f
echo hi > f
# chmod set the ACL mask from the group bits (---); open it for reading again.
setfacl -m m::r-- f
expect_eq "$(setpriv --reuid 1234 --regid 1234 --clear-groups cat f)" hi "read allowed by ACL"
expect_fail "Permission denied" setpriv --reuid 4321 --regid 4321 --clear-groups cat f
