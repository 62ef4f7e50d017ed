"""The command line (companion/cli): the commands, the terminal table, the network command."""
