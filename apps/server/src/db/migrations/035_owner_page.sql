-- The owner page (issue 20): owners sign in with an SMS code (any phone browser) or by WeChat's
-- web-page authorization (inside WeChat), then see only the rooms their binding (pms_wx_bind)
-- names. Owner sessions are kept apart from operator tokens: another table, another header.

-- SMS codes: six digits, five minutes, five tries. Only a hash of the code is kept; the address
-- that asked is kept to throttle per address as well as per phone.
create table pms_h5_code (
  id bigint primary key,
  tenant_id varchar(12) not null,
  phone varchar(20) not null,
  code_hash varchar(64) not null,
  tries integer not null default 0,
  address varchar(64) not null default '',
  expires_at timestamptz not null,
  used_time timestamptz,
  create_time timestamptz not null default now()
);
create index pms_h5_code_phone on pms_h5_code (tenant_id, phone, create_time desc);
create index pms_h5_code_address on pms_h5_code (address, create_time desc);

-- An owner session: who proved what (an openid from WeChat or a phone from an SMS code). The owner
-- is not stored here but found through the live binding on every request, so that an unbinding
-- (from the page or the console) takes effect at once. Only the token's sha256 is kept.
create table pms_h5_session (
  token_hash varchar(64) primary key,
  tenant_id varchar(12) not null,
  kind varchar(8) not null check (kind in ('wechat', 'phone')),
  identity varchar(64) not null,
  app_id varchar(32),
  expires_at timestamptz not null,
  create_time timestamptz not null default now()
);
create index pms_h5_session_expiry on pms_h5_session (expires_at);

-- A WeChat authorization started from the owner page, remembered by its state until WeChat sends
-- the person back (single use, minutes long), and bound to the browser that started it by the
-- sha256 of an HttpOnly cookie: a return link sent to someone else signs nobody in.
create table pms_h5_oauth_state (
  state varchar(64) primary key,
  tenant_id varchar(12) not null,
  code_verifier varchar(128) not null,
  browser_hash varchar(64) not null,
  expires_at timestamptz not null
);
