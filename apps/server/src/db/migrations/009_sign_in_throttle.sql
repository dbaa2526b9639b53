-- Sign-in failures lock an account only from the address they came from, so an attacker cannot
-- lock an administrator out from everywhere; the count is taken before the password is checked.
alter table auth_login_failure add column address varchar(64) not null default '';
alter table auth_login_failure drop constraint auth_login_failure_pkey;
alter table auth_login_failure add primary key (tenant_id, account, address);

-- Failures per address (all accounts) and per account (all addresses), each slowed down by a
-- doubling wait once it passes its allowance.
create table auth_sign_in_throttle (
  scope varchar(8) not null check (scope in ('address', 'account')),
  subject varchar(128) not null,
  fail_count integer not null default 0,
  last_failure_at timestamptz not null default now(),
  blocked_until timestamptz,
  primary key (scope, subject)
);
