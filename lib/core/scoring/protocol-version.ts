/**
 * The version of the IRC-Bench evaluation protocol the platform follows
 * (irc-bench-protocol.md, whose title carries it). Pages that name the
 * protocol read it from here, so a new protocol version is one edit.
 */
export const PROTOCOL_VERSION = "1.3";
