-- Platform core: tenants, users, roles, menus, clients, params, and the auth state that several
-- server processes must share (tokens, captchas, login failures). Column names follow the wire
-- contract's tables (contract §16) so that camelCase JSON maps one to one.

create table sys_tenant (
  id bigint primary key,
  tenant_id varchar(12) not null,
  tenant_name varchar(50) not null,
  domain varchar(255),
  background_url varchar(1000),
  linkman varchar(20),
  contact_number varchar(20),
  address varchar(255),
  account_number integer not null default -1,
  expire_time timestamptz,
  license_key varchar(1000),
  create_user bigint, create_dept bigint, create_time timestamptz not null default now(),
  update_user bigint, update_time timestamptz not null default now(),
  status integer not null default 1, is_deleted integer not null default 0
);
create unique index sys_tenant_code on sys_tenant (tenant_id) where is_deleted = 0;

create table sys_dept (
  id bigint primary key,
  tenant_id varchar(12) not null default '000000',
  parent_id bigint not null default 0,
  ancestors varchar(2000) not null default '0',
  dept_category integer not null default 1,
  dept_name varchar(45) not null,
  full_name varchar(45),
  sort integer not null default 0,
  remark varchar(255),
  is_deleted integer not null default 0
);
create index sys_dept_tenant on sys_dept (tenant_id);

create table sys_role (
  id bigint primary key,
  tenant_id varchar(12) not null default '000000',
  parent_id bigint not null default 0,
  role_name varchar(255) not null,
  sort integer not null default 0,
  role_alias varchar(255) not null,
  is_deleted integer not null default 0
);
create index sys_role_tenant on sys_role (tenant_id);

create table sys_user (
  id bigint primary key,
  tenant_id varchar(12) not null default '000000',
  code varchar(12),
  user_type integer not null default 1,
  account varchar(45) not null,
  -- scrypt of the md5 hex the console sends; never a fast hash (see modules/auth/password.ts)
  password varchar(255) not null,
  name varchar(20),
  real_name varchar(20),
  avatar varchar(500),
  email varchar(45),
  phone varchar(45),
  birthday timestamptz,
  sex integer,
  role_id varchar(1000) not null default '',
  dept_id varchar(1000) not null default '',
  post_id varchar(1000) not null default '',
  create_user bigint, create_dept bigint, create_time timestamptz not null default now(),
  update_user bigint, update_time timestamptz not null default now(),
  status integer not null default 1, is_deleted integer not null default 0
);
create unique index sys_user_account on sys_user (tenant_id, account) where is_deleted = 0;

create table sys_user_oauth (
  id bigint primary key,
  tenant_id varchar(12) not null default '000000',
  uuid varchar(64) not null,
  user_id bigint,
  username varchar(32),
  nickname varchar(64),
  avatar varchar(1000),
  email varchar(255),
  source varchar(16) not null,
  create_time timestamptz not null default now()
);

create table sys_menu (
  id bigint primary key,
  parent_id bigint not null default 0,
  code varchar(255) not null,
  name varchar(255) not null,
  alias varchar(255) not null default 'menu',
  path varchar(255),
  source varchar(255),
  sort integer not null default 0,
  category integer not null default 1,
  action integer not null default 0,
  is_open integer not null default 1,
  remark varchar(255),
  is_deleted integer not null default 0
);
create unique index sys_menu_code on sys_menu (code) where is_deleted = 0;

create table sys_role_menu (
  id bigint primary key,
  menu_id bigint not null,
  role_id bigint not null
);
create unique index sys_role_menu_pair on sys_role_menu (role_id, menu_id);

create table sys_top_menu (
  id bigint primary key,
  tenant_id varchar(12) not null default '000000',
  code varchar(255) not null,
  name varchar(255) not null,
  source varchar(255),
  sort integer not null default 0,
  create_user bigint, create_dept bigint, create_time timestamptz not null default now(),
  update_user bigint, update_time timestamptz not null default now(),
  status integer not null default 1, is_deleted integer not null default 0
);

create table sys_top_menu_setting (
  id bigint primary key,
  top_menu_id bigint not null,
  menu_id bigint not null
);
create unique index sys_top_menu_setting_pair on sys_top_menu_setting (top_menu_id, menu_id);

create table sys_client (
  id bigint primary key,
  client_id varchar(48) not null,
  client_secret varchar(256) not null,
  scope varchar(255) not null default 'all',
  authorized_grant_types varchar(255) not null,
  access_token_validity integer not null default 3600,
  refresh_token_validity integer not null default 604800,
  create_user bigint, create_dept bigint, create_time timestamptz not null default now(),
  update_user bigint, update_time timestamptz not null default now(),
  status integer not null default 1, is_deleted integer not null default 0
);
create unique index sys_client_code on sys_client (client_id) where is_deleted = 0;

-- Issued tokens: a token is valid only while its row exists unrevoked, so logout and refresh
-- rotation hold across every server process.
create table auth_token (
  jti varchar(64) primary key,
  session_id varchar(64) not null,
  kind varchar(8) not null check (kind in ('access', 'refresh')),
  user_id bigint not null,
  tenant_id varchar(12) not null,
  client_id varchar(48) not null,
  issued_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index auth_token_session on auth_token (session_id);
create index auth_token_expiry on auth_token (expires_at);

create table auth_captcha (
  captcha_key varchar(64) primary key,
  code varchar(16) not null,
  expires_at timestamptz not null
);

create table auth_login_failure (
  tenant_id varchar(12) not null,
  account varchar(45) not null,
  fail_count integer not null default 0,
  last_failure_at timestamptz not null default now(),
  primary key (tenant_id, account)
);

create table log_error (
  id bigint primary key,
  tenant_id varchar(12) not null default '000000',
  service_id varchar(32),
  server_host varchar(255),
  env varchar(255),
  method varchar(10),
  request_uri varchar(1000),
  user_agent varchar(1000),
  stack_trace text,
  exception_name varchar(255),
  message text,
  remote_ip varchar(255),
  params text,
  create_by varchar(64),
  create_time timestamptz not null default now()
);
create index log_error_time on log_error (create_time);
