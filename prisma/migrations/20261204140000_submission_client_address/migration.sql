-- Protocol §12: quotas bind the client address as well as the account. Each test upload records
-- the address bucket it came from (an IPv4 address, or the /64 prefix of an IPv6 one, as the
-- sign-up limits key it). Rows made before this column have none.
ALTER TABLE "Submission" ADD COLUMN "clientAddress" TEXT;
