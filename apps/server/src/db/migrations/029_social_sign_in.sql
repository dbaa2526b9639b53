-- Third-party sign-in (issue 19). Identities are kept per tenant and provider; a sign-in started
-- at a provider is remembered by its state (single use, minutes long, bound to the browser by a
-- cookie whose hash is kept); a person the tenant does not know yet applies for an account and an
-- administrator approves or rejects the application.

alter table sys_user_oauth add column provider_id bigint;
alter table sys_user_oauth add column email_verified integer not null default 0;
alter table sys_user_oauth alter column username type varchar(255);
alter table sys_user_oauth alter column nickname type varchar(255);
create unique index sys_user_oauth_identity on sys_user_oauth (tenant_id, source, uuid);
create index sys_user_oauth_user on sys_user_oauth (user_id) where user_id is not null;

create table social_sign_in_state (
  state varchar(64) primary key,
  tenant_id varchar(12) not null,
  provider_id bigint not null,
  source varchar(16) not null,
  code_verifier varchar(128) not null,
  nonce varchar(64) not null,
  -- sha256 hex of the browser cookie's value: a stolen state is useless in another browser.
  browser_hash varchar(64) not null,
  -- Set when the sign-in links an identity to a signed-in user rather than signing in.
  link_user_id bigint,
  expires_at timestamptz not null
);
create index social_sign_in_state_expiry on social_sign_in_state (expires_at);

create table sys_user_registration (
  id bigint primary key,
  tenant_id varchar(12) not null,
  oauth_id bigint not null,
  account varchar(45) not null,
  name varchar(20) not null,
  password text not null,
  -- 0 pending, 1 approved, 2 rejected.
  status integer not null default 0,
  reason varchar(255),
  address varchar(64) not null default '',
  user_id bigint,
  review_user bigint,
  review_time timestamptz,
  create_time timestamptz not null default now()
);
create unique index sys_user_registration_pending on sys_user_registration (oauth_id) where status = 0;
create index sys_user_registration_tenant on sys_user_registration (tenant_id, status, create_time);
create index sys_user_registration_address on sys_user_registration (address, create_time);
