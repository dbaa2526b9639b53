-- Uploading through object storage (put-file, put-file-attach) is a button of the 对象存储 screen,
-- `oss_upload`, beside the 附件管理 screen's `attach_upload` (either lets a role upload). A profile
-- avatar needs neither. The roles that could upload before keep being able to: every tenant's
-- administrator role and the roles holding either storage screen or its upload button.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (1856, 1850, 'oss_upload', '上传', 'upload', '/api/blade-resource/oss/endpoint/put-file', 'upload', 6, 2, 1, 1);

insert into sys_role_menu (id, menu_id, role_id)
select coalesce((select max(id) from sys_role_menu), 0) + row_number() over (order by r.id), 1856, r.id
  from sys_role r
 where r.is_deleted = 0
   and (r.role_alias in ('administrator', 'admin')
        or exists (select 1 from sys_role_menu rm where rm.role_id = r.id and rm.menu_id in (1850, 1852, 1853)))
   and not exists (select 1 from sys_role_menu x where x.role_id = r.id and x.menu_id = 1856);

-- The platform's default storage quota of a tenant whose own is blank (tenant 存储额度, 文件数额度):
-- generous for a site's avatars, attachments and documents; -1 lifts the limit.
insert into sys_param (id, param_name, param_key, param_value, remark) values
  (1856, '租户默认存储额度(MB)', 'storage.quotaMb', '1024', '租户未单独设置存储额度时可存放的文件总大小(MB),-1 为不限'),
  (1857, '租户默认文件数额度', 'storage.fileQuota', '10000', '租户未单独设置文件数额度时可存放的文件个数,-1 为不限');
