-- The lock of an account from an address counts failures only: attempts whose password is being
-- checked hold a reservation instead, apart from the failures, so correct sign-ins at the same
-- moment never lock each other out while failures plus reservations stay within the limit.
-- Each reservation is its id mapped to when it was taken (epoch seconds): one left behind by a
-- process that died lapses on its own, without holding the others back.
alter table auth_login_failure add column pending jsonb not null default '{}'::jsonb;
