-- Object storage (contract §12.2, §12.4): the `oss` dictionary as the family seeds it, plus the
-- server's own disk (key 9, the default when no configuration is enabled), and the 对象存储 and
-- 附件管理 screens under 资源管理 with their enable, upload and download buttons (contract §19).

insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (1850, 0, 'oss', '-1', '对象存储类型', 'Object storage kind', 31, 0),
  (1851, 1850, 'oss', '1', 'MinIO', 'MinIO', 1, 0),
  (1852, 1850, 'oss', '2', '七牛云', 'Qiniu', 2, 0),
  (1853, 1850, 'oss', '3', '阿里云', 'Aliyun OSS', 3, 0),
  (1854, 1850, 'oss', '4', '腾讯云', 'Tencent COS', 4, 0),
  (1855, 1850, 'oss', '9', '本地磁盘', 'Local disk', 9, 0);

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (1850, 370, 'oss', '对象存储', 'menu', '/resource/oss', 'cloud', 1, 1, 0, 1),
  (1851, 1850, 'oss_enable', '启用', 'enable', '/api/blade-resource/oss/enable', 'setting', 5, 2, 2, 1),
  (1852, 370, 'attach', '附件管理', 'menu', '/resource/attach', 'paper-clip', 2, 1, 0, 1),
  (1853, 1852, 'attach_upload', '上传', 'upload', '/api/blade-resource/oss/endpoint/put-file-attach', 'upload', 5, 2, 1, 1),
  (1854, 1852, 'attach_download', '下载', 'download', '/api/blade-resource/attach/download', 'download', 6, 2, 2, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 3, m.id from sys_menu m where m.id in (1850, 1852);
