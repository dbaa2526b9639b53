-- Data sources and code-generation definitions (contract §14). Platform-wide (no tenant): only the
-- platform administrator reaches them. A data source with no url is the server's own database; a
-- password is stored encrypted with the data key and never answered.
create table blade_datasource (
  id bigint primary key,
  name varchar(100) not null,
  driver_class varchar(100) not null default 'org.postgresql.Driver',
  url varchar(500) not null default '',
  username varchar(50) not null default '',
  password text not null default '',
  remark varchar(255),
  create_user bigint,
  create_dept bigint,
  create_time timestamptz not null default now(),
  update_user bigint,
  update_time timestamptz not null default now(),
  status integer not null default 1,
  is_deleted integer not null default 0
);

-- One definition per table: where the table is read from, and what resource is made of it. The
-- field lists are column names separated by commas; an empty list means every column.
create table blade_code (
  id bigint primary key,
  datasource_id bigint not null,
  service_name varchar(64) not null,
  code_name varchar(64) not null,
  code_name_en varchar(64) not null default '',
  table_name varchar(64) not null,
  table_prefix varchar(64) not null default '',
  pk_name varchar(32) not null default 'id',
  resource_name varchar(64) not null,
  resource_path varchar(64) not null,
  list_fields varchar(2000) not null default '',
  search_fields varchar(2000) not null default '',
  form_fields varchar(2000) not null default '',
  create_time timestamptz not null default now(),
  update_time timestamptz not null default now(),
  is_deleted integer not null default 0
);

create index blade_code_live on blade_code (id) where is_deleted = 0;
