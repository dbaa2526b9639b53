-- Uploaded files kept in the database itself: every server process serves every file, and a
-- PostgreSQL backup holds them too. Object-storage configurations can move them out later.
create table res_file (
  id bigint primary key,
  tenant_id varchar(12) not null,
  name varchar(255) not null,
  original_name varchar(500) not null,
  extension varchar(12) not null,
  content_type varchar(100) not null,
  size integer not null,
  content bytea not null,
  create_user bigint,
  create_time timestamptz not null default now()
);
create unique index res_file_name on res_file (name);
