import Foundation
import Hummingbird
import SpotterCore
import SpotterModels

/// `/compose` and `POST /posts`: writing a note or logging a workout with the builder.
///
/// A refused form is drawn again (422) with everything typed kept and each wrong field marked; a post that is
/// made redirects (303), so reloading the next page never posts twice.
struct WebComposeController {
    let posts: PostService
    let templates: TemplateService
    let media: MediaService
    /// The person's groups, which a post may go to instead of the public.
    let groups: GroupService
    /// The children the person manages, whom a post to a private group may be for.
    let children: ChildProfileService
    let pages: WebPages
    let clock: any WallClock

    struct ComposeView {
        let builder: WorkoutBuilderView
        let note: NoteView
        let workoutPhotos: PhotoPickerView
        let notePhotos: PhotoPickerView
        let workoutChildren: ChildPickerView
        let noteChildren: ChildPickerView
        /// The group asked for (`?group=`), which the template picker keeps.
        let composeGroup: String?
        /// For an encrypted group: the builder sealed in the browser instead of posted.
        let sealed: SealedComposeView?
    }

    /// `/compose?group=<an encrypted group>`: the builder, sealed by this browser (`e2e-workout.js`) for the
    /// group's members only. Nothing on it posts in the clear: without script it shows that it needs script.
    struct SealedComposeView {
        let id: String
        let name: String
        let href: String
        /// The person's time zone, in which "Done at" is typed.
        let timeZone: String
    }

    /// The "For a child" checkboxes, shown to someone who manages children.
    struct ChildPickerView {
        struct Choice {
            let id: String
            let name: String
            let checked: Bool
        }

        let prefix: String
        let children: [Choice]
        /// Stored, not computed: templates read views by reflection, which sees stored properties only.
        let hasChildren: Bool
        let message: String?

        init(prefix: String, children: [Choice], message: String?) {
            self.prefix = prefix
            self.children = children
            hasChildren = !children.isEmpty
            self.message = message
        }
    }

    /// The "Or just say something" form, with its own summary of what was refused: a note's refusal (the
    /// new-account limit, say) belongs on the note's form, not on the workout's above it.
    struct NoteView {
        let text: WorkoutBuilderView.Field
        let visibilities: [WorkoutBuilderView.Choice]
        let groups: [WorkoutBuilderView.Choice]
        let hasGroups: Bool
        let audience: WorkoutBuilderView.Field
        let summary: [WorkoutBuilderView.Summary]
        let hasSummary: Bool
    }

    var endpoints: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        routes.get("compose") { request, context in
            let viewer = try context.requireWebViewer()
            let display = WebDisplay(viewer: viewer)
            let chosen = request.uri.queryParameters["template"].flatMap { WorkoutTemplateID(String($0)) }
            let template = try await chosen.asyncMap { try await templates.workoutTemplate($0, viewer: viewer) }
            var draft = WorkoutDraft(
                template: template, units: display.units, timeZone: display.timeZone, now: clock.now)
            // `/compose?group=<id>`, from a group's page: the post goes to that group unless changed, and only to a
            // group the person may post to (else the page refuses): never to a wider audience instead.
            if let asked = request.uri.queryParameters["group"].map(String.init) {
                guard let id = GroupID(asked) else { throw SpotterError.notFound("No such group.") }
                let group = try await groups.postingTarget(id, viewer: viewer)
                draft.visibility = .group
                draft.groupID = group.id.description
            }
            return try await compose(draft: draft, problems: [], context: context)
        }
        // The compose page posts to itself when it carries photos without script (a multipart body, allowed to
        // be larger); `/posts` takes the same forms.
        routes.post("compose") { _, context in try await post(context) }
        routes.post("posts") { _, context in try await post(context) }
        return routes
    }

    private func post(_ context: AppRequestContext) async throws -> Response {
        let author = try context.requireWebViewer()
        let display = WebDisplay(viewer: author)
        let draft = WorkoutDraft(form: context.web.form, units: display.units)
        var form = WorkoutForm(draft, units: display.units, timeZone: display.timeZone, now: clock.now)
        var photos = ComposePhotos(form: context.web.form)
        if let malformed = context.web.malformedMultipart {
            throw SpotterError.malformed(detail: malformed, field: nil)
        }
        // Photos first: their alt text is saved to them before the post takes them.
        form.mark(
            await photos.prepare(files: context.web.files, media: media, owner: author, input: "\(draft.kind)-photo"))
        if let request = form.request(with: photos.ids) {
            do {
                _ = try await posts.create(request, author: author)
                // A post to a group lands on the group's page, where its members read it.
                return WebPages.redirect(to: request.groupID.map { "/groups/\($0)" } ?? "/feed/following")
            } catch SpotterError.validation(let fields) {
                form.explain(fields)
            } catch {
                guard let (status, messages) = WebErrors.explain(error) else { throw error }
                messages.forEach { form.explain($0) }
                var response = try await compose(
                    draft: draft, photos: photos, problems: form.problems, context: context)
                response.status = status
                return response
            }
        }
        var response = try await compose(draft: draft, photos: photos, problems: form.problems, context: context)
        response.status = .unprocessableContent
        return response
    }

    private func compose(
        draft: WorkoutDraft, photos: ComposePhotos? = nil, problems: [WorkoutForm.Problem],
        context: AppRequestContext
    ) async throws -> Response {
        let display = WebDisplay(viewer: context.identity?.account)
        let available = try await templates.workoutTemplates(
            viewer: context.identity?.account, author: nil, page: PageRequest(limit: 20))
        // The groups the person may post to, by `GroupPolicy` (as `POST /posts` decides).
        let targets = try await context.identity.asyncMap { try await groups.postingTargets(for: $0.account) } ?? []
        // An encrypted group's posts are sealed by the browser: this form's plain post would be refused. A draft
        // meant for one gets the sealed builder instead.
        let audiences = targets.filter { !$0.encrypted }.map { GroupSummary(id: $0.id, name: $0.name) }
        let sealed = targets.first { $0.encrypted && $0.id.description == draft.groupID }.map {
            SealedComposeView(
                id: $0.id.description, name: $0.name, href: "/groups/\($0.id)", timeZone: display.timeZone.identifier)
        }
        let isNote = draft.kind == "note"
        let builder = WorkoutBuilderView(
            draft: draft, problems: isNote ? [] : problems, units: display.units, timeZone: display.timeZone,
            now: clock.now, available: available.items, groups: audiences)
        let noteSummary = isNote ? WorkoutBuilderView.summary(of: problems) : []
        let noteMessage = isNote ? problems.first(where: { $0.input == "note-text" })?.detail : nil
        let audienceMessage = isNote ? problems.first(where: { $0.input == "note-visibility" })?.detail : nil
        let note = NoteView(
            text: .init(id: "note-text", value: isNote ? draft.text : "", message: noteMessage),
            visibilities: WebFormat.visibilities(selected: isNote ? draft.visibility : nil),
            // A fresh page (`?group=`) chooses the group in both forms; a refused one, in its own.
            groups: WebFormat.groupAudiences(audiences, selected: isNote || problems.isEmpty ? draft.groupID : nil),
            hasGroups: !audiences.isEmpty,
            audience: .init(id: "note-visibility", value: "", message: audienceMessage), summary: noteSummary,
            hasSummary: !noteSummary.isEmpty)
        let photoMessage = problems.first(where: { $0.input == "\(draft.kind)-photo" })?.detail
        var kept: [PhotoPickerView.Item] = []
        if let photos, let viewer = context.identity?.account {
            kept = await photos.views(media: media, owner: viewer, prefix: draft.kind)
        }
        func picker(_ kind: String) -> PhotoPickerView {
            kind == draft.kind && photos != nil
                ? PhotoPickerView(
                    prefix: kind, limits: media.configuration.limits, items: kept, newAlt: photos?.newAlt ?? "",
                    message: photoMessage)
                : PhotoPickerView(prefix: kind, limits: media.configuration.limits)
        }
        let managed = try await context.identity.asyncMap { try await children.mine($0.account) } ?? []
        func childPicker(_ kind: String) -> ChildPickerView {
            ChildPickerView(
                prefix: kind,
                children: managed.map { child in
                    .init(
                        id: child.id.description, name: child.name,
                        checked: kind == draft.kind && draft.childIDs.contains(child.id.description))
                },
                message: kind == draft.kind ? problems.first(where: { $0.input == "\(kind)-children" })?.detail : nil)
        }
        let view = ComposeView(
            builder: builder, note: note, workoutPhotos: picker("workout"), notePhotos: picker("note"),
            workoutChildren: childPicker("workout"), noteChildren: childPicker("note"), composeGroup: draft.groupID,
            sealed: sealed)
        return try await pages.page("compose", title: "Log a workout", content: view, context: context, nav: .compose)
    }
}
