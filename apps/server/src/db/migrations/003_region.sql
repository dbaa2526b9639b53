-- Administrative regions are keyed by their GB/T 2260 code, not by a generated id (contract §10.8).
create table sys_region (
  code varchar(12) primary key,
  parent_code varchar(12) not null,
  ancestors varchar(255) not null,
  name varchar(64) not null,
  province_code varchar(12), province_name varchar(64),
  city_code varchar(12), city_name varchar(64),
  district_code varchar(12), district_name varchar(64),
  town_code varchar(12), town_name varchar(64),
  village_code varchar(12), village_name varchar(64),
  region_level integer not null,
  sort integer not null default 0,
  remark varchar(255)
);
create index sys_region_parent on sys_region (parent_code);
