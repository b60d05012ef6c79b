# Guest job of "make shell": an interactive shell; "exit" powers off.
echo "guest: our modules are loaded; scratch disks /dev/vda /dev/vdb; exit to power off"
setsid -c bash -i
